import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { JobResult } from '@sprout/contracts';
import { CONFIG, JobQueues, OnJob } from '@sprout/platform';
import type { SmsGatewayConfig } from '../config';
import { InboundSweepService } from './inbound-sweep.service';

/** The BullMQ job scheduler id of the inbound sweep (one per deployment, whatever the replicas). */
export const INBOUND_SWEEP_SCHEDULER = 'sms-inbound-sweep';

/**
 * The inbound sweep as a scheduled job on a queue of its own: every replica upserts the same
 * scheduler, so one sweep runs per SMS_INBOUND_SWEEP_EVERY_MS for the deployment, on whichever
 * replica takes the job. A sweep that fails (Postgres or Redis down) is the next interval's to redo.
 */
@Injectable()
export class InboundSweepProcessor implements OnApplicationBootstrap {
  private readonly logger = new Logger(InboundSweepProcessor.name);

  constructor(
    private readonly sweeps: InboundSweepService,
    private readonly queues: JobQueues,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queues.schedule(
      'sms.inbound-sweep',
      INBOUND_SWEEP_SCHEDULER,
      this.config.smsInboundSweepEveryMs,
      {},
    );
  }

  @OnJob('sms.inbound-sweep')
  async sweep(): Promise<JobResult<'sms.inbound-sweep'>> {
    const result = await this.sweeps.sweep();
    const { enqueued, retried, inQueue, settled, abandoned, expired } = result;
    if (enqueued + retried + settled + abandoned + expired > 0)
      this.logger.log(
        `Inbound sweep: ${enqueued} enqueued again, ${retried} retried, ${inQueue} still queued, ${settled} settled, ${abandoned} given up, ${expired} too old`,
      );
    return result;
  }
}
