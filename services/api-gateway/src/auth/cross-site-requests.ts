import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestPath } from '../common/request-info';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const CROSS_SITE_REFUSED = 'Cross-site requests are not allowed.';

const firstHeader = (value: string | string[] | undefined): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.split(',')[0]?.trim().toLowerCase() || undefined;
};

/** "host:80" and "host:443" are "host" in an Origin (URL drops default ports): compare alike. */
const withoutDefaultPort = (host: string | undefined): string | undefined => host?.replace(/:(80|443)$/, '');

/**
 * True when a browser tells us the request comes from another site: Sec-Fetch-Site says
 * cross-site, or the Origin is not this host (as the client or the edge in front of us sees it).
 */
export const isCrossSite = (request: FastifyRequest): boolean => {
  if (firstHeader(request.headers['sec-fetch-site']) === 'cross-site') return true;
  const origin = firstHeader(request.headers.origin);
  if (origin === undefined) return false;
  let originHost: string;
  try {
    originHost = withoutDefaultPort(new URL(origin).host.toLowerCase()) ?? '';
  } catch {
    return true; // "null" (sandboxed frames, file://) or garbage: not us.
  }
  const hosts = [request.headers.host, request.headers['x-forwarded-host']].map((h) =>
    withoutDefaultPort(firstHeader(h)),
  );
  return !hosts.includes(originHost);
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
