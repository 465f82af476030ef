import { type LoggerService, type LogLevel as NestLogLevel } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import { maskPhoneNumbers, maskPhoneNumbersDeep } from './mask';

export type { Logger } from 'pino';

export interface CreateLoggerOptions {
  /** The service name, added to every line. */
  name: string;
  level?: string;
  /** Where lines go (default stdout); tests pass a stream to read them. */
  destination?: DestinationStream;
}

/** JSON lines via pino; phone numbers are masked in the message and in every logged object. */
export const createLogger = ({ name, level = 'info', destination }: CreateLoggerOptions): Logger => {
  const options: pino.LoggerOptions = {
    level,
    base: { service: name, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => maskPhoneNumbersDeep(object) as Record<string, unknown>,
    },
    hooks: {
      // Masks the message text and its interpolation arguments (the log formatter sees only objects).
      logMethod(args, method) {
        const masked = args.map((arg) =>
          typeof arg === 'string' ? maskPhoneNumbers(arg) : arg,
        ) as Parameters<typeof method>;
        method.apply(this, masked);
      },
    },
    serializers: {
      err: (err: unknown) => maskPhoneNumbersDeep(err),
    },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
};

const nestLevelToPino = {
  log: 'info',
  error: 'error',
  warn: 'warn',
  debug: 'debug',
  verbose: 'trace',
  fatal: 'fatal',
} as const satisfies Record<NestLogLevel, string>;

/** Routes Nest's own logs (and `new Logger(ctx)` calls in services) through the pino logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('log', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('verbose', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: NestLogLevel, message: unknown, params: unknown[]): void {
    // Nest passes (message, context) or, for errors, (message, stack, context).
    const rest = [...params];
    const context =
      rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const fields: Record<string, unknown> = {};
    if (context !== undefined) fields.context = context;
    if (level === 'error' && typeof rest[0] === 'string' && rest[0].includes('\n'))
      fields.stack = rest.shift();
    if (rest.length > 0) fields.details = rest;
    const pinoLevel = nestLevelToPino[level];
    if (message instanceof Error) {
      this.logger[pinoLevel]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'string') {
      this.logger[pinoLevel](fields, message);
    } else {
      this.logger[pinoLevel]({ ...fields, data: message }, 'log');
    }
  }
}
