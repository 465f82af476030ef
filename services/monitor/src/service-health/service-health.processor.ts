import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { HEALTH_CHECK_EVERY_SECONDS, type JobResult } from '@sprout/contracts';
import { JobQueues, LOGGER, OnJob } from '@sprout/platform';
import type { Logger } from 'pino';
import type { MonitoredServiceHealth } from '../state/monitor-state';
import { ServiceHealthService } from './service-health.service';

export const HEALTH_SCHEDULER_ID = 'monitor-health-every-30s';
export const HEALTH_EVERY_MS = HEALTH_CHECK_EVERY_SECONDS * 1000;
/** Without a round for this long (BullMQ cannot deliver jobs: Redis is down) the monitor checks on its own. */
const WATCHDOG_AFTER_MS = 2 * HEALTH_EVERY_MS;

@Injectable()
export class ServiceHealthProcessor implements OnApplicationBootstrap, OnModuleDestroy {
  private watchdog: NodeJS.Timeout | undefined;
  private watchdogRunning = false;

  constructor(
    private readonly health: ServiceHealthService,
    private readonly queues: JobQueues,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queues.schedule('monitor.health', HEALTH_SCHEDULER_ID, HEALTH_EVERY_MS, {});
    this.watchdog = setInterval(() => void this.checkIfOverdue(), HEALTH_EVERY_MS);
    this.watchdog.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.watchdog);
  }

  /** Every 30 s, and on demand (the console's Force Health Check waits for this result). */
  @OnJob('monitor.health')
  async handle(): Promise<JobResult<'monitor.health'>> {
    const health = await this.health.checkAll();
    this.report(health);
    return {
      overallHealth: health.overallHealth,
      timestamp: health.timestamp,
      services: health.services,
    };
  }

  /** A round outside BullMQ when its scheduled jobs stopped arriving, so failures keep being counted. */
  async checkIfOverdue(nowMs: number = Date.now()): Promise<boolean> {
    if (this.watchdogRunning || nowMs - this.health.lastRound < WATCHDOG_AFTER_MS) return false;
    this.watchdogRunning = true;
    try {
      this.report(await this.health.checkAll());
      return true;
    } catch (error) {
      this.logger.error(
        { error: error instanceof Error ? error.message : String(error) },
        'health round failed',
      );
      return false;
    } finally {
      this.watchdogRunning = false;
    }
  }

  private report(health: MonitoredServiceHealth): void {
    const failing = [
      ...Object.entries(health.services).filter(([, state]) => state.consecutiveFailures > 0),
      ...Object.entries(health.queues)
        .filter(([, state]) => state.consecutiveFailures > 0)
        .map(([queue, state]) => [`queue ${queue}`, state] as const),
    ];
    if (failing.length > 0) {
      this.logger.warn(
        { overallHealth: health.overallHealth, failing: Object.fromEntries(failing) },
        'health checks failing',
      );
    }
  }
}
