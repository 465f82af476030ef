import { LOGGER } from '@sprout/platform';
import type { Logger } from 'pino';
import { createApp } from './app';
import { loadApiGatewayConfig } from './config';

// bootstrapService (libs/platform) listens as soon as the app is initialised, while the OpenAPI
// routes can only be added between the two; so: createApp, then listen, with Nest's shutdown hooks
// closing workers, queues, Postgres and Redis in order (PlatformLifecycle).
const main = async (): Promise<void> => {
  const config = loadApiGatewayConfig();
  const app = await createApp(config);
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen({ port: config.port, host: config.host });
  app.get<Logger>(LOGGER).info({ url: `http://${config.host}:${config.port}` }, 'api-gateway listening');
};

main().catch((error: unknown) => {
  console.error('api-gateway failed to start:', error);
  process.exit(1);
});
