import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestPath } from '../common/request-info';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const CROSS_SITE_REFUSED = 'Cross-site requests are not allowed.';

const firstHeader = (value: string | string[] | undefined): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.split(',')[0]?.trim() || undefined;
};

/** scheme://host[:port] of a URL, default ports dropped and the host lower-cased; null for anything else. */
const originOf = (url: string): string | null => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
};

/**
 * The request's own origin: its scheme and Host. Fastify reads X-Forwarded-Proto and -Host only
 * from a TRUST_PROXY peer (the edge), the rule X-Forwarded-For follows; from anyone else they are
 * the socket's scheme and the Host header.
 */
const ownOrigin = (request: FastifyRequest): string | null =>
  originOf(`${request.protocol}://${request.host}`);

/**
 * True when a browser tells us the request comes from another origin: Sec-Fetch-Site says
 * cross-site, or the Origin (else the Referer) differs from the request's own origin in scheme,
 * host or port. A request with neither header is not a browser's cross-site form or fetch.
 */
const isCrossSite = (request: FastifyRequest): boolean => {
  if (firstHeader(request.headers['sec-fetch-site'])?.toLowerCase() === 'cross-site') return true;
  const claimed = firstHeader(request.headers.origin) ?? request.headers.referer;
  if (claimed === undefined) return false;
  // "null" (sandboxed frames, file://) or garbage: not us.
  const origin = originOf(claimed);
  return origin === null || origin !== ownOrigin(request);
};

/** CSRF defence for the cookie-authenticated API: unsafe methods under /api from another site get 403. */
export const refuseCrossSiteRequests = (fastify: FastifyInstance): void => {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!UNSAFE_METHODS.has(request.method)) return;
    const path = requestPath(request);
    if (path !== '/api' && !path.startsWith('/api/')) return;
    if (isCrossSite(request)) {
      return reply.code(403).send({ statusCode: 403, error: 'Forbidden', message: CROSS_SITE_REFUSED });
    }
    return undefined;
  });
};
