import type { DataSource } from 'typeorm';
import { type TestDatabase, type TestRedis, createTestDatabase, createTestRedis } from '../database';

/** The settings that point a service at a test's own stores, logging nothing. */
export interface StoreConfig {
  databaseUrl: string;
  redisUrl: string;
  bullmqPrefix: string;
  logLevel: 'silent';
}

/** A test's own database and Redis prefix, and whatever else it started on them. */
export interface TestStores {
  db: TestDatabase;
  redis: TestRedis;
  ds: DataSource;
  config: StoreConfig;
  /** Closes `thing` with the stores, before them (the last adopted first). */
  adopt<T extends { close(): Promise<unknown> }>(thing: T): T;
  close(): Promise<void>;
}

/** A fresh database and Redis prefix; `close()` closes what was adopted, then both stores. */
export async function createTestStores(): Promise<TestStores> {
  const [dbMade, redisMade] = await Promise.allSettled([createTestDatabase(), createTestRedis()]);
  if (dbMade.status === 'rejected' || redisMade.status === 'rejected') {
    if (dbMade.status === 'fulfilled') await dbMade.value.drop();
    if (redisMade.status === 'fulfilled') await redisMade.value.cleanup();
    throw dbMade.status === 'rejected' ? dbMade.reason : (redisMade as PromiseRejectedResult).reason;
  }
  const db = dbMade.value;
  const redis = redisMade.value;
  const adopted: Array<{ close(): Promise<unknown> }> = [];
  return {
    db,
    redis,
    ds: db.dataSource,
    config: { databaseUrl: db.url, redisUrl: redis.url, bullmqPrefix: redis.prefix, logLevel: 'silent' },
    adopt: (thing) => {
      adopted.push(thing);
      return thing;
    },
    close: async () => {
      for (const thing of adopted.splice(0).reverse()) await thing.close();
      await redis.cleanup();
      await db.drop();
    },
  };
}

/**
 * A service (or anything closable) started on fresh stores: `start` may adopt fakes it starts
 * on the way. If it throws, what it adopted and the stores are closed before the error goes on.
 */
export async function startOnStores<S extends { close(): Promise<unknown> }>(
  start: (stores: TestStores) => Promise<S>,
): Promise<TestStores & { service: S }> {
  const stores = await createTestStores();
  try {
    const service = stores.adopt(await start(stores));
    return { ...stores, service };
  } catch (error) {
    await stores.close();
    throw error;
  }
}
