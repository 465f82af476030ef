import { ALL_ENDPOINTS, type EndpointDefinition } from '@sprout/contracts';
import { z } from 'zod';

// The endpoint table's own consistency: what the gateway serves and the web apps call is only
// as right as these definitions.

const name = (e: EndpointDefinition): string => `${e.method} ${e.path}`;

/** The `:name` parameters of a path, in order. */
const pathParams = (path: string): string[] => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '');

it('has endpoints', () => {
  expect(ALL_ENDPOINTS.length).toBeGreaterThan(0);
});

it.each(ALL_ENDPOINTS.map((e) => [name(e), e] as const))(
  '%s: its path parameters are exactly the keys of its params schema',
  (_name, e) => {
    const inPath = pathParams(e.path).sort();
    if (e.params === undefined) {
      expect(inPath).toEqual([]);
      return;
    }
    expect(e.params).toBeInstanceOf(z.ZodObject);
    expect(Object.keys((e.params as z.ZodObject).shape).sort()).toEqual(inPath);
  },
);

it('never defines the same method and path twice', () => {
  const seen = new Map<string, number>();
  // `/a/:id` and `/a/:name` are the same route to the router.
  for (const e of ALL_ENDPOINTS) {
    const key = `${e.method} ${e.path.replace(/:[A-Za-z0-9_]+/g, ':')}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  expect([...seen].filter(([, count]) => count > 1)).toEqual([]);
});

it('serves webhooks under /webhooks/ and everything else under /api/', () => {
  const misplaced = ALL_ENDPOINTS.filter(
    (e) => !e.path.startsWith(e.access === 'webhook' ? '/webhooks/' : '/api/'),
  ).map(name);
  expect(misplaced).toEqual([]);
});
