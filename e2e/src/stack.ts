// The web stack for browser tests: api-gateway in-process on its own database and Redis prefix,
// serving the built web apps and /api on one local origin.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@sprout/testing';
import { type ApiGatewayConfig, createApp } from '../../services/api-gateway/src/app';

export const ADMIN_USERNAME = 'e2e-admin';
export const ADMIN_PASSWORD = 'e2e-admin-password-123';

const repoRoot = path.resolve(__dirname, '..', '..');
export const WEB_PUBLIC_DIST = path.join(repoRoot, 'web-public', 'dist');
export const WEB_ADMIN_DIST = path.join(repoRoot, 'web-admin', 'dist');

export interface WebStack {
  /** http://127.0.0.1:PORT, the one origin of both apps and /api. */
  baseUrl: string;
  db: TestDatabase;
  redis: TestRedis;
  app: NestFastifyApplication;
  close(): Promise<void>;
}

function requireBuilt(dist: string, workspace: string): void {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist} has no index.html: run npm run build -w ${workspace} first`);
  }
}

/** Starts the stack; `overrides` replace api-gateway settings (e.g. a lower signup rate limit). */
export async function startWebStack(overrides: Partial<ApiGatewayConfig> = {}): Promise<WebStack> {
  requireBuilt(WEB_PUBLIC_DIST, '@sprout/web-public');
  requireBuilt(WEB_ADMIN_DIST, '@sprout/web-admin');
  const db = await createTestDatabase();
  const redis = await createTestRedis();
  let app: NestFastifyApplication | undefined;
  try {
    app = await createApp({
      databaseUrl: db.url,
      redisUrl: redis.url,
      bullmqPrefix: redis.prefix,
      logLevel: 'silent',
      adminUsername: ADMIN_USERNAME,
      adminPassword: ADMIN_PASSWORD,
      webPublicDist: WEB_PUBLIC_DIST,
      webAdminDist: WEB_ADMIN_DIST,
      ...overrides,
    });
    const fastify = app.getHttpAdapter().getInstance();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = fastify.server.address();
    if (address === null || typeof address === 'string')
      throw new Error('api-gateway did not listen on a TCP port');
    const started = app;
    return {
      baseUrl: `http://127.0.0.1:${address.port}`,
      db,
      redis,
      app: started,
      close: async () => {
        await started.close();
        await redis.cleanup();
        await db.drop();
      },
    };
  } catch (error) {
    await app?.close();
    await redis.cleanup();
    await db.drop();
    throw error;
  }
}
