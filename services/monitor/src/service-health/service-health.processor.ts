import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { JobResult } from '@sprout/contracts';
import { JobQueues, LOGGER, OnJob } from '@sprout/platform';
import type { Logger } from 'pino';
import { ServiceHealthService } from './service-health.service';

export const HEALTH_SCHEDULER_ID = 'monitor-health-every-30s';
export const HEALTH_EVERY_MS = 30_000;

@Injectable()
export class ServiceHealthProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly health: ServiceHealthService,
    private readonly queues: JobQueues,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queues.schedule('monitor.health', HEALTH_SCHEDULER_ID, HEALTH_EVERY_MS, {});
  }

  /** Every 30 s, and on demand (the console's Force Health Check waits for this result). */
  @OnJob('monitor.health')
  async handle(): Promise<JobResult<'monitor.health'>> {
    const health = await this.health.checkAll();
    const failing = Object.entries(health.services).filter(([, state]) => state.consecutiveFailures > 0);
    if (failing.length > 0) {
      this.logger.warn(
        { overallHealth: health.overallHealth, failing: Object.fromEntries(failing) },
        'health checks failing',
      );
    }
    return health;
  }
}
