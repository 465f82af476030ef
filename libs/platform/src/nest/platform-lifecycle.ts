import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { JobQueues } from '../jobs/job-queues';
import { WorkerHost } from '../jobs/worker-host.service';
import { LOGGER } from './tokens';

/**
 * Closes the process's resources in order. Nest closes the HTTP server before shutdown hooks, so
 * by now no request is in flight: then workers finish their active jobs, then queues, Postgres
 * and Redis close.
 */
@Injectable()
export class PlatformLifecycle implements OnApplicationShutdown {
  constructor(
    private readonly workers: WorkerHost,
    private readonly queues: JobQueues,
    private readonly dataSource: DataSource,
    private readonly redis: Redis,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationShutdown(signal?: string): Promise<void> {
    if (signal !== undefined) this.logger.info({ signal }, 'shutting down');
    const step = async (label: string, work: () => Promise<unknown>): Promise<void> => {
      try {
        await work();
      } catch (error) {
        this.logger.error({ err: error }, `shutdown: closing ${label} failed`);
      }
    };
    await step('workers', () => this.workers.close());
    await step('queues', () => this.queues.close());
    await step('Postgres', async () => {
      if (this.dataSource.isInitialized) await this.dataSource.destroy();
    });
    await step('Redis', async () => {
      if (this.redis.status === 'ready') await this.redis.quit();
      else this.redis.disconnect();
    });
    this.logger.info('shutdown complete');
  }
}
