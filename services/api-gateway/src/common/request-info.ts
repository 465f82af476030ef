import type { FastifyRequest } from 'fastify';

// Fastify runs with trustProxy (libs/platform), so ip and protocol come from the edge's
// X-Forwarded-For / X-Forwarded-Proto when present.

export const clientIp = (request: FastifyRequest): string => request.ip || 'unknown';

export const isHttps = (request: FastifyRequest): boolean => request.protocol === 'https';

export const requestPath = (request: FastifyRequest): string => request.url.split('?')[0] ?? request.url;
