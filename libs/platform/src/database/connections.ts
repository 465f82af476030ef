import { createDataSource } from '@sprout/domain';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

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
