import {
  BadGatewayException,
  GatewayTimeoutException,
  Inject,
  Injectable,
  Logger,
  ServiceUnavailableException,
} from '@nestjs/common';
import type { ForceHealthCheckResponse, ProactiveForceCheckResponse } from '@sprout/contracts';
import { JobQueues, JobTimeoutError } from '@sprout/platform';
import { Redis } from 'ioredis';
import { MONITORING_CONFIG, type MonitoringConfig } from './monitoring.config';
import { MonitorStateReader, REDIS_UNREACHABLE, redisIsDown } from './monitor-state.reader';

const FORCE_CHECK_FAILED = 'The monitor could not complete the check.';
const forceCheckTimedOut = (timeoutMs: number): string =>
  `The monitor did not answer within ${Math.round(timeoutMs / 1000)} s. Is the monitor service running?`;

/** The console's force checks: a monitor.health or monitor.predict job, waited for with a timeout. */
@Injectable()
export class MonitorChecksService {
  private readonly logger = new Logger(MonitorChecksService.name);

  constructor(
    private readonly queues: JobQueues,
    private readonly state: MonitorStateReader,
    private readonly redis: Redis,
    @Inject(MONITORING_CONFIG) private readonly config: MonitoringConfig,
  ) {}

  /** Runs every health check now and answers the fresh state. */
  async forceHealthCheck(): Promise<ForceHealthCheckResponse> {
    const result = await this.wait(() =>
      this.queues.enqueueAndWait('monitor.health', {}, this.config.forceCheckTimeoutMs),
    );
    return { success: true, health: await this.state.afterForcedRound(result) };
  }

  /** Computes trends and predictions now and answers the predictions. */
  async forcePredictions(): Promise<ProactiveForceCheckResponse> {
    const result = await this.wait(() =>
      this.queues.enqueueAndWait('monitor.predict', {}, this.config.forceCheckTimeoutMs),
    );
    return { success: true, predictions: result.predictions.predictions };
  }

  private async wait<T>(run: () => Promise<T>): Promise<T> {
    // The job goes through Redis: while it is down the monitor cannot be asked.
    if (redisIsDown(this.redis)) throw new ServiceUnavailableException(REDIS_UNREACHABLE);
    try {
      return await run();
    } catch (error) {
      if (error instanceof JobTimeoutError)
        throw new GatewayTimeoutException(forceCheckTimedOut(this.config.forceCheckTimeoutMs));
      this.logger.warn(
        `Forced monitor check failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw new BadGatewayException(FORCE_CHECK_FAILED);
    }
  }
}
