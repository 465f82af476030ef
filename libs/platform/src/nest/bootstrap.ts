import { type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { createServer } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { DependencyUnavailableFilter } from '../http/dependency-unavailable';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { createLogger, NestPinoLogger } from '../logging/logger';
import { maskPhoneNumbers } from '../logging/mask';
import { applySecurityHeaders, type SecurityHeaderOptions, securityHeaders } from '../http/security-headers';
import type { CoreConfig } from './platform-options';
import { LOGGER } from './tokens';

export interface ServiceAppOptions {
  /** The module registers its own catch-all exception filter (APP_FILTER); none is added here. */
  ownsErrorFilter?: boolean;
  /** The service's root module (usually `AppModule.forRoot(config)`, which imports PlatformModule). */
  module: Type | DynamicModule;
  name: string;
  config: CoreConfig & { port: number };
  /** Listen on this port (0 = any free port); omit to only initialise (e.g. `app.inject`). */
  listenPort?: number;
  /** Request body limit in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** The security-header policy's options (default: no pages, no HSTS). */
  securityHeaders?: SecurityHeaderOptions;
}

export interface ServiceApp {
  app: NestFastifyApplication;
  /** http://host:port when listening, else undefined. */
  url: string | undefined;
  logger: Logger;
  /** Graceful close: HTTP, then workers, then queues, Postgres and Redis. */
  close(): Promise<void>;
}

const isProbe = (url: string): boolean => url.startsWith('/health/') || url === '/metrics';

/**
 * Creates and initialises a service: Fastify, Nest logs through pino (phones masked), request
 * logging, workers started (onApplicationBootstrap). Listens when `listenPort` is given.
 */
export const createServiceApp = async (options: ServiceAppOptions): Promise<ServiceApp> => {
  const adapter = new FastifyAdapter({
    logger: false,
    // Forwarded headers only from the configured proxies (the edge); from anyone else the IP and
    // protocol are the socket's.
    trustProxy: options.config.trustProxy.length > 0 ? [...options.config.trustProxy] : false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
  });
  const app = await NestFactory.create<NestFastifyApplication>(options.module, adapter, {
    bufferLogs: true,
    abortOnError: false,
  });
  const logger = app.get<Logger>(LOGGER);
  app.useLogger(new NestPinoLogger(logger));
  // A service with its own catch-all filter answers these 503s itself (isDependencyUnavailable).
  if (options.ownsErrorFilter !== true)
    app.useGlobalFilters(new DependencyUnavailableFilter(app.getHttpAdapter()));

  const fastify = app.getHttpAdapter().getInstance();
  // The security headers on every answer: set first (before any module's hook can answer, such
  // as api-gateway's CSRF refusal), and on the raw server too, for answers Fastify gives before
  // its hooks run (a malformed URL).
  const headers = securityHeaders(options.securityHeaders);
  fastify.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  fastify.server.prependListener('request', (_req, res) => applySecurityHeaders(res, headers));
  fastify.addHook('onResponse', (request, reply, done) => {
    const line = {
      method: request.method,
      url: maskPhoneNumbers(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (isProbe(request.url)) logger.debug(line, 'request');
    else logger.info(line, 'request');
    done();
  });

  try {
    await app.init();
    if (options.listenPort !== undefined)
      await app.listen({ port: options.listenPort, host: options.config.host });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }

  let url: string | undefined;
  if (options.listenPort !== undefined) {
    const address = fastify.server.address();
    if (address !== null && typeof address === 'object') {
      const host =
        options.config.host === '0.0.0.0' || options.config.host === '::' ? '127.0.0.1' : options.config.host;
      url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    }
  }
  return { app, url, logger, close: () => app.close() };
};

/**
 * The whole of a service's main.ts: create, listen on PORT (HOST, default 0.0.0.0), and on
 * SIGTERM/SIGINT close gracefully within SHUTDOWN_TIMEOUT_SECONDS, else exit anyway.
 */
export const bootstrapService = async (
  options: Omit<ServiceAppOptions, 'listenPort'>,
): Promise<INestApplication> => {
  let service: ServiceApp;
  try {
    service = await createServiceApp({ ...options, listenPort: options.config.port });
  } catch (error) {
    createLogger({ name: options.name, level: options.config.logLevel }).fatal(
      { err: error },
      'failed to start',
    );
    process.exit(1);
  }
  const { app, logger } = service;
  let shuttingDown = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      if (shuttingDown) return;
      shuttingDown = true;
      logger.info({ signal }, 'shutting down');
      const timer = setTimeout(() => {
        logger.error({ signal }, 'graceful shutdown timed out; exiting');
        process.exit(1);
      }, options.config.shutdownTimeoutSeconds * 1000);
      timer.unref();
      app
        .close()
        .then(() => process.exit(0))
        .catch((error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        });
    });
  }
  logger.info({ url: `http://${options.config.host}:${options.config.port}` }, `${options.name} listening`);
  return app;
};

/** A free TCP port (for tests that must know their URL before the app starts, e.g. PUBLIC_BASE_URL). */
export const findFreePort = async (host = '127.0.0.1'): Promise<number> => {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = address !== null && typeof address === 'object' ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
};
