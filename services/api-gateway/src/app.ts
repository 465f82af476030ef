/**
 * createApp(configOverrides?: Partial<ApiGatewayConfig>): Promise<NestFastifyApplication>
 *
 * The api-gateway as one Nest Fastify application, initialised but not listening: tests call
 * `app.inject(...)` or `await app.listen({ port: 0, host: '127.0.0.1' })`, and `await app.close()`
 * when done. Configuration comes from the environment (DATABASE_URL, REDIS_URL, ...); each
 * override replaces one typed value, e.g. `createApp({ bullmqPrefix: redis.prefix,
 * databaseUrl: db.url, webPublicDist: dir })`. The database must already be migrated.
 * This signature is used by the browser-test harness in e2e/: keep it stable.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@sprout/platform';
import { AppModule, SERVICE_NAME } from './app.module';
import { type ApiGatewayConfig, loadApiGatewayConfig } from './config';
import { setupOpenApi } from './docs/openapi';

export type { ApiGatewayConfig } from './config';

export const createApp = async (
  configOverrides: Partial<ApiGatewayConfig> = {},
): Promise<NestFastifyApplication> => {
  const config = loadApiGatewayConfig(configOverrides);
  const { app } = await createServiceApp({ module: AppModule.forRoot(config), name: SERVICE_NAME, config });
  try {
    setupOpenApi(app);
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
};
