import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CONFIG, JobQueues } from '@sprout/platform';
import { Redis } from 'ioredis';
import type { SmsGatewayConfig } from '../config';
import { InboundSweepService } from './inbound-sweep.service';

/**
 * Runs the inbound sweep every SMS_INBOUND_SWEEP_EVERY_MS on each replica; a Redis key taken with
 * SET NX for most of the interval lets one replica sweep per interval for the deployment (the
 * sweep is idempotent, so two sweeping at once only repeat each other's work).
 */
@Injectable()
export class InboundSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(InboundSweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly sweeps: InboundSweepService,
    private readonly redis: Redis,
    private readonly queues: JobQueues,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs = this.config.smsInboundSweepEveryMs;
    // Replicas started together do not all wake at the same moment.
    const tick = (): void => {
      this.timer = setTimeout(
        () => {
          this.running = this.runOnce().finally(() => {
            this.running = null;
            if (this.timer !== null) tick();
          });
        },
        everyMs + Math.floor(Math.random() * Math.min(1000, everyMs / 10)),
      );
      this.timer.unref();
    };
    tick();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private async runOnce(): Promise<void> {
    try {
      const key = `${this.queues.prefix}:inbound-sweep:lock`;
      const ttl = Math.max(500, this.config.smsInboundSweepEveryMs - 1000);
      if ((await this.redis.set(key, String(process.pid), 'PX', ttl, 'NX')) !== 'OK') return;
      const result = await this.sweeps.sweep();
      if (result.enqueued > 0 || result.expired > 0)
        this.logger.log(
          `Inbound sweep: ${result.enqueued} enqueued again, ${result.inQueue} still queued, ${result.expired} too old`,
        );
    } catch (error) {
      // Postgres or Redis down: the next interval tries again.
      this.logger.warn(`Inbound sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
