import { type ArgumentsHost, Catch, HttpException, Logger } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { maskPhoneNumbers } from '../logging/mask';

/** Seconds a client is told to wait before retrying while Postgres or Redis is unreachable. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;
export const DEPENDENCY_UNAVAILABLE_MESSAGE =
  'A service Sprout depends on (database or Redis) is unavailable; retry shortly.';

// Postgres SQLSTATEs that mean "not reachable now", not "this request is wrong": connection
// exceptions (class 08), shutting down or starting up (57P01-57P03), too many connections.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
// pg and ioredis say so in words only.
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection is closed',
  'Reached the max retries per request limit',
  "Stream isn't writeable",
];

const fieldOf = (value: unknown, field: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[field] : undefined;

/**
 * True when the error (or what it wraps: TypeORM's driverError, a cause, an AggregateError's
 * errors) says Postgres or Redis could not be reached, so the request may succeed when retried.
 */
export const isDependencyUnavailable = (error: unknown, depth = 0): boolean => {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const code = fieldOf(error, 'code');
  if (typeof code === 'string') {
    if (UNAVAILABLE_SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  const message = fieldOf(error, 'message');
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.includes(text))) return true;
  const nested = [fieldOf(error, 'driverError'), fieldOf(error, 'cause')];
  const errors = fieldOf(error, 'errors');
  if (Array.isArray(errors)) nested.push(...(errors as unknown[]));
  return nested.some((inner) => isDependencyUnavailable(inner, depth + 1));
};

/**
 * Answers 503 with Retry-After, instead of Nest's 500, when a request failed because Postgres or
 * Redis was unreachable: the edge retries a webhook on 503 (Twilio itself does not retry), and a
 * 5xx that says "try again" is the truth. Every other error goes to Nest's own handling.
 */
@Catch()
export class DependencyUnavailableFilter extends BaseExceptionFilter {
  private readonly log = new Logger('DependencyUnavailable');

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (
      exception instanceof HttpException ||
      !isDependencyUnavailable(exception) ||
      host.getType() !== 'http'
    ) {
      super.catch(exception, host);
      return;
    }
    const reason = exception instanceof Error ? exception.message : String(exception);
    this.log.warn(`answered 503: ${maskPhoneNumbers(reason)}`);
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply
      .status(503)
      .header('Retry-After', String(DEPENDENCY_RETRY_AFTER_SECONDS))
      // A route may have set another type already (the webhooks answer TwiML).
      .type('application/json; charset=utf-8')
      .send(
        JSON.stringify({
          statusCode: 503,
          error: 'Service Unavailable',
          message: DEPENDENCY_UNAVAILABLE_MESSAGE,
        }),
      );
  }
}
