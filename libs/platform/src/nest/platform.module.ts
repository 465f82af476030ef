import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { createRedisConnection, openDataSource } from '../database/connections';
import { HealthController } from '../health/health.controller';
import { JobQueues } from '../jobs/job-queues';
import { WorkerHost } from '../jobs/worker-host.service';
import { createLogger } from '../logging/logger';
import { Metrics, jobMetrics } from '../metrics/metrics';
import { PlatformLifecycle } from './platform-lifecycle';
import type { PlatformModuleOptions } from './platform-options';
import { CONFIG, LOGGER, PLATFORM_OPTIONS } from './tokens';

/**
 * Everything a service process shares, global so capability modules just inject it:
 * CONFIG, LOGGER (pino), Metrics, DataSource (TypeORM), Redis (ioredis), JobQueues, the worker
 * host for @OnJob handlers, and GET /health/live, /health/ready and /metrics.
 */
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformModuleOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: PLATFORM_OPTIONS, useValue: options },
      { provide: CONFIG, useValue: options.config },
      {
        provide: LOGGER,
        useFactory: (): Logger => createLogger({ name: options.name, level: options.config.logLevel }),
      },
      { provide: Metrics, useFactory: () => new Metrics(options.name) },
      {
        provide: Redis,
        inject: [LOGGER],
        useFactory: (logger: Logger) => createRedisConnection(options.config.redisUrl, options.name, logger),
      },
      {
        provide: DataSource,
        useFactory: () =>
          openDataSource(options.config.databaseUrl, options.name, options.config.databasePoolSize),
      },
      {
        provide: JobQueues,
        inject: [Redis, Metrics],
        useFactory: (redis: Redis, metrics: Metrics) =>
          new JobQueues({
            connection: redis,
            prefix: options.config.bullmqPrefix,
            metrics: jobMetrics(metrics),
          }),
      },
      WorkerHost,
      PlatformLifecycle,
    ];
    return {
      module: PlatformModule,
      global: true,
      imports: [DiscoveryModule],
      controllers: [HealthController],
      providers,
      exports: [CONFIG, LOGGER, Metrics, Redis, DataSource, JobQueues, WorkerHost],
    };
  }
}
