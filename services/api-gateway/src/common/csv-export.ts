import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { CSV_CONTENT_TYPE } from '@sprout/contracts';
import { type RowCursor, type Statement, openCursor } from '@sprout/domain';
import { LOGGER } from '@sprout/platform';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

/** Rows fetched from the cursor per round trip: memory stays at one batch whatever the export's size. */
export const EXPORT_BATCH_ROWS = 500;

type Row = Record<string, unknown>;

/** A CSV column: its header and the row field it shows; free text is guarded against spreadsheet formulas. */
export interface CsvColumn {
  header: string;
  field: string;
  text?: boolean;
}

/** One CSV field (RFC 4180): quoted when needed; text starting like a formula gets a leading quote. */
export const csvField = (value: unknown, text = false): string => {
  if (value === null || value === undefined) return '';
  let out =
    value instanceof Date
      ? value.toISOString()
      : Array.isArray(value)
        ? value.join('; ')
        : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : JSON.stringify(value);
  if (text && /^[=+\-@\t\r]/.test(out)) out = `'${out}`;
  return /[",\r\n]/.test(out) ? `"${out.replace(/"/g, '""')}"` : out;
};

const csvLine = (columns: CsvColumn[], row: Row): string =>
  `${columns.map((c) => csvField(row[c.field], c.text)).join(',')}\r\n`;

/**
 * The admin screens' CSV exports: a header row, then the rows of a statement read through a
 * server-side cursor (openCursor) on one pooled connection, a batch at a time, going out as the reply reads
 * them (never the whole result in memory). Each export is logged with what `log` says of it.
 */
@Injectable()
export class CsvExporter {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  stream(columns: CsvColumn[], statement: Statement, log: Row): Readable {
    const { dataSource, logger } = this;
    async function* lines(): AsyncGenerator<string> {
      let cursor: RowCursor | undefined;
      let rows = 0;
      let finished = false;
      logger.info(log, 'CSV export started');
      try {
        cursor = await openCursor(dataSource, statement);
        yield `${columns.map((c) => c.header).join(',')}\r\n`;
        for (;;) {
          const batch = await cursor.fetch(EXPORT_BATCH_ROWS);
          if (batch.length === 0) break;
          rows += batch.length;
          yield batch.map((row) => csvLine(columns, row)).join('');
        }
        finished = true;
      } finally {
        // Also when the client goes away mid-download: the stream is destroyed and this runs.
        await cursor?.close();
        logger.info({ ...log, rows, finished }, finished ? 'CSV export finished' : 'CSV export stopped');
      }
    }
    return Readable.from(lines());
  }

  /** Sends `csv` as a download named `<name>-<today>.csv`. */
  async send(reply: FastifyReply, csv: Readable, name: string): Promise<void> {
    const date = new Date().toISOString().slice(0, 10);
    await reply
      .header('content-type', CSV_CONTENT_TYPE)
      .header('content-disposition', `attachment; filename="${name}-${date}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  }
}
