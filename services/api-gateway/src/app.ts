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
import { type ApiGatewayConfig, cookieSecureOf, loadApiGatewayConfig } from './config';
import { setupOpenApi } from './docs/openapi';

export type { ApiGatewayConfig } from './config';

export const createApp = async (
  configOverrides: Partial<ApiGatewayConfig> = {},
): Promise<NestFastifyApplication> => {
  const config = loadApiGatewayConfig(configOverrides);
  const secure = cookieSecureOf(config);
  const { app } = await createServiceApp({
    module: AppModule.forRoot(config),
    name: SERVICE_NAME,
    config,
    ownsErrorFilter: true,
    // It serves both web apps: their CSP; HSTS only where the site is served over https.
    securityHeaders: { contentSecurityPolicy: 'pages', hsts: secure },
  });
  try {
    // The session cookie's Secure flag comes from configuration, never from a header.
    app.getHttpAdapter().getInstance().decorateRequest('cookieSecure', secure);
    setupOpenApi(app);
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
};
