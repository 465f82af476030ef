import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@sprout/platform';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@sprout/testing';
import type { DataSource } from 'typeorm';
import { type ApiGatewayConfig, createApp } from '../../src/app';
import { AppModule, SERVICE_NAME } from '../../src/app.module';
import { loadApiGatewayConfig } from '../../src/config';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'correct-horse-battery-staple';

export interface TestGateway {
  app: NestFastifyApplication;
  db: TestDatabase;
  redis: TestRedis;
  /** Another app on the same database and Redis prefix, with other settings. */
  startAnother(overrides?: Partial<ApiGatewayConfig>): Promise<NestFastifyApplication>;
  close(): Promise<void>;
}

const storesAndAdmin = (db: TestDatabase, redis: TestRedis): Partial<ApiGatewayConfig> => ({
  databaseUrl: db.url,
  redisUrl: redis.url,
  bullmqPrefix: redis.prefix,
  logLevel: 'silent',
  adminUsername: ADMIN_USERNAME,
  adminPassword: ADMIN_PASSWORD,
});

/** The gateway on its own migrated database and Redis prefix, with a known admin. */
export const startGateway = async (overrides: Partial<ApiGatewayConfig> = {}): Promise<TestGateway> => {
  const db = await createTestDatabase();
  const redis = await createTestRedis();
  const apps: NestFastifyApplication[] = [];
  const base: Partial<ApiGatewayConfig> = {
    ...storesAndAdmin(db, redis),
    // app.inject comes from 127.0.0.1: tests stand in for the edge and name the client IP.
    trustProxy: ['127.0.0.1'],
  };
  const start = async (extra: Partial<ApiGatewayConfig>): Promise<NestFastifyApplication> => {
    const app = await createApp({ ...base, ...extra });
    apps.push(app);
    return app;
  };
  try {
    const app = await start(overrides);
    return {
      app,
      db,
      redis,
      startAnother: (extra = {}) => start({ ...overrides, ...extra }),
      close: async () => {
        for (const a of apps) await a.close();
        await redis.cleanup();
        await db.drop();
      },
    };
  } catch (error) {
    for (const a of apps) await a.close();
    await redis.cleanup();
    await db.drop();
    throw error;
  }
};

/** The sprout_session cookie pair ("sprout_session=...") from a response, if it set one. */
export const sessionCookieFrom = (setCookie: string | string[] | undefined): string | undefined => {
  const all = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie];
  const cookie = all.find((c) => c.startsWith('sprout_session='));
  return cookie?.split(';')[0];
};

/** Signs in as the test admin; answers the Cookie header value to send. */
export const login = async (
  app: NestFastifyApplication,
  credentials: { username?: string; password?: string } = {},
): Promise<string> => {
  const response = await app.inject({
    method: 'POST',
    url: '/api/admin/login',
    payload: {
      username: credentials.username ?? ADMIN_USERNAME,
      password: credentials.password ?? ADMIN_PASSWORD,
    },
  });
  const cookie = sessionCookieFrom(response.headers['set-cookie']);
  if (response.statusCode !== 200 || cookie === undefined) {
    throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  }
  return cookie;
};

/** A started gateway with the test admin signed in: its app, database, and the Cookie header value. */
export interface SignedIn {
  app: NestFastifyApplication;
  db: TestDatabase;
  ds: DataSource;
  cookie: string;
  close(): Promise<void>;
}

export type SignedInGateway = TestGateway & SignedIn;

/** startGateway, then the test admin signed in. */
export const startSignedIn = async (overrides: Partial<ApiGatewayConfig> = {}): Promise<SignedInGateway> => {
  const gw = await startGateway(overrides);
  try {
    return { ...gw, ds: gw.db.dataSource, cookie: await login(gw.app) };
  } catch (error) {
    await gw.close();
    throw error;
  }
};

/**
 * AppModule as it is, plus the module under test (Nest imports a module once, however often
 * named), on its own database and Redis prefix, with the test admin signed in.
 */
export const startSignedInWith = async (moduleUnderTest: Type): Promise<SignedIn> => {
  const db = await createTestDatabase();
  const redis = await createTestRedis();
  let app: NestFastifyApplication | undefined;
  const close = async (): Promise<void> => {
    await app?.close();
    await redis.cleanup();
    await db.drop();
  };
  try {
    const config = loadApiGatewayConfig(storesAndAdmin(db, redis));
    ({ app } = await createServiceApp({
      module: { module: class TestRoot {}, imports: [AppModule.forRoot(config), moduleUnderTest] },
      name: SERVICE_NAME,
      config,
    }));
    return { app, db, ds: db.dataSource, cookie: await login(app), close };
  } catch (error) {
    await close();
    throw error;
  }
};

/** The response has `status` and its body's message says `message`. */
export const expectStatusMessage = (
  res: { statusCode: number; json: () => unknown },
  status: number,
  message: string,
): void => {
  expect(res.statusCode).toBe(status);
  expect((res.json() as { message?: unknown }).message).toBe(message);
};

/**
 * A new client address on each call, under 10.<block> (a block of its own per test file), so the
 * per-IP limits only bite where a test means them to.
 */
export const clientIps = (block: number): (() => string) => {
  let n = 0;
  return () => {
    n += 1;
    return `10.${block}.${Math.floor(n / 250)}.${n % 250}`;
  };
};
