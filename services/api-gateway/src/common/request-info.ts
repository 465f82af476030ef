import type { FastifyRequest } from 'fastify';

// Fastify believes X-Forwarded-For only from the peers in TRUST_PROXY (the edge, which writes it
// itself); from anyone else request.ip is the socket's address.

export const clientIp = (request: FastifyRequest): string => request.ip || 'unknown';

/** Whether the session cookie is marked Secure: configuration only, never a client's header. */
const cookieSecure = (request: FastifyRequest): boolean =>
  // Decorated by api-gateway's app.ts from COOKIE_SECURE.
  (request as FastifyRequest & { cookieSecure?: boolean }).cookieSecure === true;

/** The name session.service.ts calls: the cookie's Secure flag, from configuration (cookieSecure). */
export const isHttps = cookieSecure;

export const requestPath = (request: FastifyRequest): string => request.url.split('?')[0] ?? request.url;
