import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { ApiErrorBody } from '@sprout/contracts';
import {
  DEPENDENCY_RETRY_AFTER_SECONDS,
  DEPENDENCY_UNAVAILABLE_MESSAGE,
  isDependencyUnavailable,
} from '@sprout/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';

const GENERIC_500 = 'Something went wrong on our side. Please try again.';

const reasonPhrase = (status: number): string => {
  const name = HttpStatus[status];
  if (typeof name !== 'string') return 'Error';
  return name
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
};

/** Errors Fastify raises before a handler runs (body parsing, content type) carry a 4xx statusCode. */
const clientErrorStatus = (error: unknown): number | undefined => {
  if (!(error instanceof Error)) return undefined;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
};

const body = (status: number, message: string, extra: Record<string, unknown> = {}): ApiErrorBody => ({
  ...extra,
  statusCode: status,
  error: reasonPhrase(status),
  message,
});

export const toErrorResponse = (exception: unknown): { status: number; body: ApiErrorBody } => {
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    if (typeof response === 'string') return { status, body: body(status, response) };
    const fields = response as Record<string, unknown>;
    const raw = fields.message;
    const message = Array.isArray(raw)
      ? raw.map(String).join('; ')
      : typeof raw === 'string'
        ? raw
        : exception.message;
    return { status, body: body(status, message, fields) };
  }
  const clientStatus = clientErrorStatus(exception);
  if (clientStatus !== undefined) {
    const message =
      exception instanceof SyntaxError ? 'The request body is not valid JSON.' : (exception as Error).message;
    return { status: clientStatus, body: body(clientStatus, message) };
  }
  // Postgres or Redis unreachable: worth retrying, unlike a 500.
  if (isDependencyUnavailable(exception))
    return { status: 503, body: body(503, DEPENDENCY_UNAVAILABLE_MESSAGE) };
  return { status: 500, body: body(500, GENERIC_500) };
};

/**
 * The one place errors become answers (ApiErrorBody): HttpExceptions keep their status and
 * message, Fastify's body-parsing errors stay 4xx, anything else is logged and answered with a
 * generic 500 that reveals nothing.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, body: answer } = toErrorResponse(exception);
    if (status >= 500 && !(exception instanceof HttpException)) {
      const error = exception instanceof Error ? exception : new Error(String(exception));
      this.logger.error(error, `${request.method} ${request.url.split('?')[0] ?? ''}`);
    }
    if (status === 503 && !(exception instanceof HttpException)) {
      this.logger.warn(
        `${request.method} ${request.url.split('?')[0] ?? ''} answered 503: ${answer.message}`,
      );
      void reply.header('Retry-After', String(DEPENDENCY_RETRY_AFTER_SECONDS));
    }
    if (reply.sent) return;
    void reply.status(status).send(answer);
  }
}
