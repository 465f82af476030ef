import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { requireTestEnv } from './env';

export interface TestRedis {
  url: string;
  /** Unique per call. Pass it as BullMQ's `prefix`; name any raw key `${prefix}:...`. */
  prefix: string;
  /** Ready connection, usable by BullMQ (maxRetriesPerRequest: null). */
  connection: Redis;
  /** Deletes every key under `${prefix}:` and closes the connection. */
  cleanup(): Promise<void>;
}

/** An isolated key space on the shared Redis for one test file. Call `cleanup()` in afterAll. */
export async function createTestRedis(): Promise<TestRedis> {
  const url = requireTestEnv('REDIS_URL', 'redis://127.0.0.1:6379');
  const prefix = `t${randomBytes(6).toString('hex')}`;
  // No retry loop before the first connection: an unreachable Redis should fail the test file, not hang it.
  let connected = false;
  const connection = new Redis(url, {
    maxRetriesPerRequest: null,
    lazyConnect: true,
    retryStrategy: (times) => (connected ? Math.min(times * 50, 2000) : null),
  });
  try {
    await connection.connect();
    connected = true;
  } catch (error) {
    connection.disconnect();
    throw new Error(
      `Cannot reach Redis at REDIS_URL: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  let cleaned: Promise<void> | undefined;
  const cleanup = (): Promise<void> => {
    cleaned ??= (async () => {
      let cursor = '0';
      do {
        const [next, keys] = await connection.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await connection.unlink(...keys);
      } while (cursor !== '0');
      await connection.quit();
    })();
    return cleaned;
  };
  return { url, prefix, connection, cleanup };
}
