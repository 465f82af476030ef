// What every benchmark shares: its command line, its log, the servers it runs against, percentiles,
// and where its results go (bench-results/, gitignored).
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { EndpointDefinition } from '@sprout/contracts';

export const ROOT = path.resolve(__dirname, '../..');

/** The Postgres server (its maintenance database: each bench makes its own) and Redis. */
export const benchServers = (): { adminUrl: string; redisUrl: string } => ({
  adminUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
});

export const log = (message: string): void => {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The options of a command line of `--name=value` and bare `--name` (which reads as true). */
export interface Flags {
  has(name: string): boolean;
  text(name: string): string | undefined;
  /** A positive number, `fallback` when absent; anything else is an error naming the flag. */
  positive(name: string, fallback: number): number;
  /** The same, a whole number. */
  whole(name: string, fallback: number): number;
}

export const readFlags = (argv: readonly string[]): Flags => {
  const values = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match?.[1]) throw new Error(`Unknown argument ${arg}`);
    values.set(match[1], match[2] ?? 'true');
  }
  const read = (name: string, fallback: number, whole: boolean): number => {
    const raw = values.get(name);
    const value = raw === undefined ? fallback : Number(raw);
    const ok = whole ? Number.isInteger(value) : Number.isFinite(value);
    if (!ok || value <= 0)
      throw new Error(`--${name} must be a positive ${whole ? 'whole number' : 'number'}`);
    return value;
  };
  return {
    has: (name) => values.has(name),
    text: (name) => values.get(name),
    positive: (name, fallback) => read(name, fallback, false),
    whole: (name, fallback) => read(name, fallback, true),
  };
};

export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** The q-quantile by nearest rank (the smallest value with at least q of them at or below it); NaN of none. */
export const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
};

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

/** Latencies' count, median, 95th percentile and maximum, rounded to `digits` when given. */
export const summarize = (latencies: readonly number[], digits?: number): Summary => {
  const keep = (value: number): number => (digits === undefined ? value : round(value, digits));
  return {
    n: latencies.length,
    p50: keep(quantile(latencies, 0.5)),
    p95: keep(quantile(latencies, 0.95)),
    max: keep(latencies.length === 0 ? Number.NaN : latencies.reduce((a, b) => Math.max(a, b))),
  };
};

/** Writes bench-results/<file>, JSON for an object; answers its path from the repository's root. */
export const writeResult = (file: string, content: object | string): string => {
  const out = path.join(ROOT, 'bench-results', file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  return path.relative(ROOT, out);
};

/** An endpoint as a report names it: `GET /api/admin/users/{id}`, then the query's template if any. */
export const routeOf = (definition: EndpointDefinition, query?: string): string =>
  `${definition.method} ${definition.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}${query === undefined ? '' : `?${query}`}`;

/** Removes what a run left in Redis under its own prefix (sessions, counters, queues, schedulers). */
export async function removeRunKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
