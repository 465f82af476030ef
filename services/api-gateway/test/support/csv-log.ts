import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LOGGER } from '@sprout/platform';
import type { Logger } from 'pino';

export interface LoggedExport {
  fields: unknown;
  message: unknown;
}

/** The CSV exports' log lines of the app from now on (the array fills as they are logged). */
export function captureCsvExportLogs(app: NestFastifyApplication): LoggedExport[] {
  const logged: LoggedExport[] = [];
  const logger = app.get<Logger>(LOGGER);
  jest.spyOn(logger, 'info').mockImplementation((fields: unknown, message: unknown) => {
    if (typeof message === 'string' && message.startsWith('CSV export')) logged.push({ fields, message });
  });
  return logged;
}

/** A 200 CSV download sent as an attachment named like `filename`. */
export function expectCsvAttachment(
  res: { statusCode: number; headers: Record<string, unknown> },
  filename: RegExp,
): void {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toMatch(filename);
}
