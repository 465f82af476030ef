import { PATH_METADATA } from '@nestjs/common/constants';
import { ALL_ENDPOINTS } from '@sprout/contracts';
import { endpointOf } from '@sprout/platform';
import { WebhooksController } from '../src/webhooks/webhooks.controller';
import { type GatewayHarness, startGateway } from './harness';

// The sms-gateway serves exactly the webhook endpoints of the contract table, each behind the
// Twilio signature check.

const key = (method: string, path: string): string => `${method} ${path}`;
const webhooks = ALL_ENDPOINTS.filter((e) => e.access === 'webhook');

let h: GatewayHarness;
let routes: string[];

beforeAll(async () => {
  h = await startGateway();
  const fastify = h.gateway.app.getHttpAdapter().getInstance();
  // One line per route without common prefixes: "├── /webhooks/twilio/sms (POST)".
  routes = fastify
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .flatMap((line) => {
      const match = /(\/\S*) \(([^)]+)\)\s*$/.exec(line);
      if (match === null) return [];
      const [, url = '', methods = ''] = match;
      return methods.split(',').map((method) => key(method.trim(), url));
    });
});
afterAll(async () => {
  await h?.close();
});

it('registers exactly the webhook endpoints of the table under /webhooks', () => {
  expect(webhooks.length).toBeGreaterThan(0);
  expect(routes.filter((r) => r.split(' ')[1]?.startsWith('/webhooks')).sort()).toEqual(
    webhooks.map((e) => key(e.method, e.path)).sort(),
  );
});

it('maps every webhook handler with @Endpoint', () => {
  const prototype = WebhooksController.prototype as unknown as Record<string, unknown>;
  const handlers = Object.getOwnPropertyNames(prototype)
    .filter((name) => name !== 'constructor')
    .map((name) => prototype[name])
    .filter((handler): handler is object => typeof handler === 'function')
    .filter((handler) => Reflect.getMetadata(PATH_METADATA, handler) !== undefined);
  expect(handlers.length).toBe(webhooks.length);
  for (const handler of handlers) expect(webhooks).toContain(endpointOf(handler));
});

it.each(webhooks.map((e) => [key(e.method, e.path), e.path] as const))(
  '%s refuses an unsigned post with 403',
  async (_name, path) => {
    const response = await fetch(`${h.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ MessageSid: 'SMunsigned0000000000000000000000001', From: '+15035550100' }),
    });
    expect(response.status).toBe(403);
  },
);
