import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CONFIG, JobQueues } from '@sprout/platform';
import type { SmsGatewayConfig } from '../config';

/** The BullMQ job scheduler id of the reconciliation (one per deployment, whatever the replicas). */
export const STATUS_RECONCILE_SCHEDULER = 'sms-status-reconcile';

/**
 * Registers the repeatable delivery.check without a conversation: every replica upserts the same
 * scheduler, so it runs once per interval for the deployment, on whichever replica takes it.
 */
@Injectable()
export class StatusReconciler implements OnApplicationBootstrap {
  constructor(
    private readonly queues: JobQueues,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queues.schedule(
      'delivery.check',
      STATUS_RECONCILE_SCHEDULER,
      this.config.smsStatusReconcileEveryMs,
      {
        requestedAt: new Date(0).toISOString(),
      },
    );
  }
}
