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
import helmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@sprout/platform';
import { AppModule, SERVICE_NAME } from './app.module';
import { type ApiGatewayConfig, cookieSecureOf, loadApiGatewayConfig } from './config';
import { setupOpenApi } from './docs/openapi';

export type { ApiGatewayConfig } from './config';

/**
 * The Content-Security-Policy of the console and the public site (Vite builds: scripts and styles
 * from /assets; Radix and the toasts add <style> elements, hence 'unsafe-inline' for styles only;
 * MMS thumbnails come from anywhere over http(s)). Framing is refused everywhere.
 */
const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  // npm start and compose serve plain http on localhost: no forced upgrade.
  upgradeInsecureRequests: null,
};

/** Security headers on every answer (helmet), and the cookie's Secure flag from configuration. */
const registerSecurityHeaders = async (app: NestFastifyApplication, secure: boolean): Promise<void> => {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.decorateRequest('cookieSecure', secure);
  // @nestjs/platform-fastify carries its own copy of fastify, whose instance type lacks the
  // @fastify/cookie decorations the top-level copy has: same runtime, different declarations.
  await app.register(helmet as unknown as Parameters<NestFastifyApplication['register']>[0], {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: 'deny' },
    // HSTS only where the site is served over https.
    strictTransportSecurity: secure ? { maxAge: 180 * 24 * 60 * 60, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
};

export const createApp = async (
  configOverrides: Partial<ApiGatewayConfig> = {},
): Promise<NestFastifyApplication> => {
  const config = loadApiGatewayConfig(configOverrides);
  const { app } = await createServiceApp({
    module: AppModule.forRoot(config),
    name: SERVICE_NAME,
    config,
    ownsErrorFilter: true,
  });
  try {
    await registerSecurityHeaders(app, cookieSecureOf(config));
    setupOpenApi(app);
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
};
