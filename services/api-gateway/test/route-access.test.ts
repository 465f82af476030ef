import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RouteRegistry, type RegisteredRoute } from '../src/common/route-registry';
import { login, startGateway, type TestGateway } from './support/gateway';

/**
 * The allow-list of routes reachable without an admin session. Every other
 * registered route must answer 401: a new route that forgets the guard fails this test.
 */
const PUBLIC_ROUTES: ReadonlyArray<{ method: string | RegExp; url: string | RegExp }> = [
  { method: 'POST', url: '/api/beta-signup' },
  { method: 'POST', url: '/api/admin/login' },
  { method: /^(GET|HEAD)$/, url: '/api/admin/auth-status' },
  { method: 'POST', url: '/api/test-location' },
  { method: /^(GET|HEAD)$/, url: '/api/public-config' },
  // The image validation suite's own samples, fetched by the gateway itself without a session.
  { method: /^(GET|HEAD)$/, url: '/api/image-samples/:name' },
  // Probes and metrics.
  { method: /^(GET|HEAD)$/, url: /^\/health\/(live|ready)$/ },
  { method: /^(GET|HEAD)$/, url: '/metrics' },
  // OpenAPI document and its UI.
  { method: /^(GET|HEAD)$/, url: /^\/api\/docs(-json|-yaml|\/.*)?$/ },
  // The built web apps and their assets.
  {
    method: /^(GET|HEAD)$/,
    url: /^\/(|\*|live|consent|location-test|admin|admin\/\*|admin\/assets\/\*|assets\/\*|ai-conversation-simulator|mobile-conversation\/\*|users)$/,
  },
];

const matches = (pattern: string | RegExp, value: string): boolean =>
  typeof pattern === 'string' ? pattern === value : pattern.test(value);

const isPublic = (route: RegisteredRoute): boolean =>
  PUBLIC_ROUTES.some((p) => matches(p.method, route.method) && matches(p.url, route.url));

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';
/** A concrete URL for a route pattern: ids for parameters, a segment for wildcards. */
const concreteUrl = (url: string): string =>
  url.replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, SAMPLE_ID).replace(/\*$/, 'sample');

const INJECTABLE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type InjectableMethod = (typeof INJECTABLE_METHODS)[number];
const isInjectable = (method: string): method is InjectableMethod =>
  (INJECTABLE_METHODS as readonly string[]).includes(method);

let gw: TestGateway;
let app: NestFastifyApplication;
let routes: readonly RegisteredRoute[];

beforeAll(async () => {
  gw = await startGateway();
  app = gw.app;
  routes = app.get(RouteRegistry).routes;
});
afterAll(async () => {
  await gw?.close();
});

it('sees the routes Fastify registered, including every capability', () => {
  const keys = routes.map((r) => `${r.method} ${r.url}`);
  expect(keys).toEqual(
    expect.arrayContaining([
      'GET /api/dashboard/metrics',
      'GET /api/admin/beta-signups',
      'POST /api/admin/beta-signups/:id/approve',
      'POST /api/admin/logout',
      'POST /api/beta-signup',
      'GET /health/live',
      'GET /api/docs-json',
      'GET /*',
    ]),
  );
});

it('answers 401 without a session on every route not on the public list', async () => {
  const guarded = routes.filter((route) => !isPublic(route));
  expect(guarded.length).toBeGreaterThanOrEqual(4);
  const failures: string[] = [];
  for (const route of guarded) {
    if (!isInjectable(route.method)) {
      failures.push(`${route.method} ${route.url}: method not testable`);
      continue;
    }
    const res = await app.inject({
      method: route.method,
      url: concreteUrl(route.url),
      ...(['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) ? { payload: {} } : {}),
    });
    if (res.statusCode !== 401) {
      failures.push(`${route.method} ${route.url}: ${res.statusCode}`);
    } else if (route.method !== 'HEAD' && res.json().message !== 'Authentication required') {
      failures.push(`${route.method} ${route.url}: message ${res.body}`);
    }
  }
  expect(failures).toEqual([]);
});

it('lets a signed-in admin through the same routes', async () => {
  const cookie = await login(app);
  for (const route of routes.filter((r) => !isPublic(r) && r.method === 'GET')) {
    const res = await app.inject({ method: 'GET', url: concreteUrl(route.url), headers: { cookie } });
    expect([route.url, res.statusCode]).not.toEqual([route.url, 401]);
  }
});

it('covers the admin areas by prefix, not by listing', () => {
  const guardedPrefixes = [
    '/api/admin/',
    '/api/simulator/',
    '/api/monitoring/',
    '/api/test/',
    '/api/dashboard/',
  ];
  const guardedExact = ['/api/validate-message', '/api/process-message'];
  for (const route of routes) {
    const inArea = guardedPrefixes.some((p) => route.url.startsWith(p)) || guardedExact.includes(route.url);
    if (inArea && route.url !== '/api/admin/login' && route.url !== '/api/admin/auth-status') {
      expect(isPublic(route)).toBe(false);
    }
  }
});
