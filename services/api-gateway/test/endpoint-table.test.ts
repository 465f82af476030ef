import { useClosable } from '@sprout/testing';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService } from '@nestjs/core';
import { ALL_ENDPOINTS, type EndpointDefinition } from '@sprout/contracts';
import { HealthController, endpointOf } from '@sprout/platform';
import { RouteRegistry } from '../src/common/route-registry';
import { startGateway } from './support/gateway';

const gw = useClosable(() => startGateway());

// The gateway serves exactly the endpoint table: no /api route outside it, no
// handler without @Endpoint, every endpoint served, the admin areas admin-only, and /api/docs
// documenting all of it.

const key = (method: string, path: string): string => `${method} ${path}`;
const served = ALL_ENDPOINTS.filter((e) => e.access !== 'webhook');
const servedKeys = new Set(served.map((e) => key(e.method, e.path)));

/** The OpenAPI document and its UI: generated from the table, not in it. */
const isDocs = (url: string): boolean => /^\/api\/docs($|-json$|-yaml$|\/)/.test(url);

/** Controllers outside the table: the platform's probes and metrics. */
const NON_TABLE_CONTROLLERS: readonly unknown[] = [HealthController];

it('registers under /api only endpoints of the table, with their method and path', () => {
  const routes = gw.app.get(RouteRegistry).routes.filter((r) => r.url.startsWith('/api') && !isDocs(r.url));
  expect(routes.length).toBeGreaterThan(0);
  // Fastify adds a HEAD route to every GET.
  const outside = routes
    .filter((r) => !servedKeys.has(key(r.method === 'HEAD' ? 'GET' : r.method, r.url)))
    .map((r) => key(r.method, r.url));
  expect(outside).toEqual([]);
});

it('serves every non-webhook endpoint of the table', () => {
  const registered = new Set(gw.app.get(RouteRegistry).routes.map((r) => key(r.method, r.url)));
  expect(
    served.filter((e) => !registered.has(key(e.method, e.path))).map((e) => key(e.method, e.path)),
  ).toEqual([]);
});

it('maps every controller handler with @Endpoint, at its endpoint method and path', () => {
  const problems: string[] = [];
  for (const wrapper of gw.app.get(DiscoveryService).getControllers()) {
    const controller = wrapper.metatype as (abstract new (...args: never[]) => object) | null;
    if (controller === null || NON_TABLE_CONTROLLERS.includes(controller)) continue;
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (typeof handler !== 'function' || name === 'constructor') continue;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      if (path === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const endpoint: EndpointDefinition | undefined = endpointOf(handler);
      const where = `${controller.name}.${name} (${method} ${path})`;
      if (endpoint === undefined) problems.push(`${where}: no @Endpoint`);
      else if (endpoint.method !== method || endpoint.path !== path)
        problems.push(`${where}: not its endpoint's`);
      else if (!servedKeys.has(key(endpoint.method, endpoint.path)))
        problems.push(`${where}: not in the table`);
    }
    // A path prefix on the controller would move its endpoints off their table paths.
    const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
    if (prefix !== undefined && prefix !== '/' && prefix !== '')
      problems.push(`${controller.name}: prefix ${prefix}`);
  }
  expect(problems).toEqual([]);
});

it('makes every endpoint of the admin areas admin-only', () => {
  const adminAreas = [
    /^\/api\/admin\//,
    /^\/api\/simulator\//,
    /^\/api\/monitoring\//,
    /^\/api\/test\//,
    /^\/api\/validate-message$/,
    /^\/api\/process-message$/,
    // The console's dashboard, as route-access.test.ts holds it.
    /^\/api\/dashboard\//,
  ];
  // The login page needs these before there is a session.
  const publicInAdminArea = new Set(['POST /api/admin/login', 'GET /api/admin/auth-status']);
  const wrong = ALL_ENDPOINTS.filter((e) => adminAreas.some((area) => area.test(e.path)))
    .filter((e) => e.access !== (publicInAdminArea.has(key(e.method, e.path)) ? 'public' : 'admin'))
    .map((e) => `${key(e.method, e.path)}: ${e.access}`);
  expect(wrong).toEqual([]);
});

it('documents every non-webhook endpoint at /api/docs-json, and nothing else', async () => {
  const res = await gw.app.inject({ method: 'GET', url: '/api/docs-json' });
  expect(res.statusCode).toBe(200);
  const document = res.json<{ paths: Record<string, Record<string, unknown>> }>();
  const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => key(method.toUpperCase(), path.replace(/\{([^}]+)\}/g, ':$1'))),
  );
  expect(documented.sort()).toEqual([...servedKeys].sort());
});
