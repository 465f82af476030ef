// Worker concurrency and the Postgres pool size come from the environment, validated once at start.
import { ConfigError, WorkerHost, findFreePort } from '@sprout/platform';
import { type TestDatabase, type TestRedis, createTestDatabase, createTestRedis } from '@sprout/testing';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { createApp } from '../src/app';

describe('worker and pool settings', () => {
  let db: TestDatabase;
  let redis: TestRedis;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
  });
  afterAll(async () => {
    await redis.cleanup();
    await db.drop();
  });

  const start = async (env: Record<string, string>) =>
    createApp(
      {
        databaseUrl: db.url,
        redisUrl: redis.url,
        bullmqPrefix: redis.prefix,
        host: '127.0.0.1',
        port: await findFreePort(),
        logLevel: 'silent',
      },
      env,
    );

  /** What a responder started on `env` runs with: each queue's concurrency and the pool's size. */
  const settingsOf = async (env: Record<string, string>) => {
    const responder = await start(env);
    try {
      const workers = responder.app.get(WorkerHost).workers;
      const driver = responder.app.get(DataSource).driver as PostgresDriver;
      return {
        inbound: workers.get('sms.inbound')?.concurrency,
        summarize: workers.get('conversation.summarize')?.concurrency,
        pool: (driver.master as { options: { max: number } }).options.max,
      };
    } finally {
      await responder.close();
    }
  };

  it('runs each queue with the concurrency and the pool with the size the environment sets', async () => {
    expect(
      await settingsOf({ SMS_INBOUND_CONCURRENCY: '7', SUMMARIZE_CONCURRENCY: '3', DATABASE_POOL_SIZE: '5' }),
    ).toEqual({ inbound: 7, summarize: 3, pool: 5 });
  });

  it('defaults to 16 replies and 4 summaries at once and a pool of 10', async () => {
    expect(await settingsOf({})).toEqual({ inbound: 16, summarize: 4, pool: 10 });
  });

  it('refuses to start on a bad value, naming the variable', async () => {
    await expect(start({ SMS_INBOUND_CONCURRENCY: '0', DATABASE_POOL_SIZE: 'ten' })).rejects.toThrow(
      ConfigError,
    );
    await expect(start({ SMS_INBOUND_CONCURRENCY: '0' })).rejects.toThrow(
      'SMS_INBOUND_CONCURRENCY must be a whole number between 1 and 500 (got "0")',
    );
    await expect(start({ DATABASE_POOL_SIZE: 'ten' })).rejects.toThrow(
      'DATABASE_POOL_SIZE must be a whole number between 1 and 200 (got "ten")',
    );
    await expect(start({ SUMMARIZE_CONCURRENCY: '2.5' })).rejects.toThrow('SUMMARIZE_CONCURRENCY must be');
  });
});
