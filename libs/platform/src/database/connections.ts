import { createDataSource } from '@sprout/domain';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { field } from '../config/config';
import { integerSchema } from '../config/fields';

/**
 * DATABASE_POOL_SIZE: the most Postgres connections one process opens (default 10, pg's own).
 * A job or request holds one only while its statements run (never across a model or Twilio
 * call), so a pool smaller than the worker concurrency is fine; replicas x pool size, summed over
 * services, must stay under the server's max_connections. Each service spreads it in its config.ts.
 */
export const databasePoolSizeField = field('DATABASE_POOL_SIZE', integerSchema(10, 1, 200));

/**
 * The process's Redis client, shared by BullMQ (which duplicates it for blocking reads) and by
 * services. maxRetriesPerRequest must be null for BullMQ; no keyPrefix: BullMQ uses `prefix`.
 */
export const createRedisConnection = (url: string, name: string, logger?: Logger): Redis => {
  const redis = new Redis(url, { maxRetriesPerRequest: null, connectionName: name, enableReadyCheck: true });
  let lastError = '';
  redis.on('error', (error: Error) => {
    // A down Redis repeats the same error on every reconnect attempt: log changes only.
    if (error.message !== lastError) logger?.error({ err: error }, 'Redis connection error');
    lastError = error.message;
  });
  redis.on('ready', () => {
    lastError = '';
  });
  return redis;
};

/** The process's Postgres pool (the schema comes from migrations, never synchronize). */
export const openDataSource = async (url: string, name: string, poolSize?: number): Promise<DataSource> => {
  const dataSource = createDataSource({
    url,
    applicationName: `sprout-${name}`,
    ...(poolSize === undefined ? {} : { poolSize }),
  });
  try {
    await dataSource.initialize();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Could not connect to Postgres (DATABASE_URL): ${reason}`, { cause: error });
  }
  return dataSource;
};
