import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@sprout/testing';
import { type ApiGatewayConfig, createApp } from '../../src/app';

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

/** The gateway on its own migrated database and Redis prefix, with a known admin. */
export const startGateway = async (overrides: Partial<ApiGatewayConfig> = {}): Promise<TestGateway> => {
  const db = await createTestDatabase();
  const redis = await createTestRedis();
  const apps: NestFastifyApplication[] = [];
  const base: Partial<ApiGatewayConfig> = {
    databaseUrl: db.url,
    redisUrl: redis.url,
    bullmqPrefix: redis.prefix,
    logLevel: 'silent',
    adminUsername: ADMIN_USERNAME,
    adminPassword: ADMIN_PASSWORD,
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
