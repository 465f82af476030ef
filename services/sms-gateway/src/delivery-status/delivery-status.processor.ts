import { Injectable, Logger } from '@nestjs/common';
import type { JobPayload, JobResult } from '@sprout/contracts';
import { type Job, OnJob } from '@sprout/platform';
import { parseDeliveryStatus } from '@sprout/sms';
import { DeliveryStatusService } from './delivery-status.service';

/** Thrown while the message of a callback is not stored yet (the send is still being recorded). */
class MessageNotYetKnownError extends Error {}

@Injectable()
export class DeliveryStatusProcessor {
  private readonly logger = new Logger(DeliveryStatusProcessor.name);

  constructor(private readonly statuses: DeliveryStatusService) {}

  @OnJob('sms.status')
  async applyStatus(payload: JobPayload<'sms.status'>, job: Job): Promise<JobResult<'sms.status'>> {
    const status = parseDeliveryStatus(payload.status);
    if (status === null) return 'ignored';
    const outcome = await this.statuses.apply({
      providerSid: payload.providerSid,
      status,
      errorCode: payload.errorCode,
      errorMessage: payload.errorMessage,
    });
    if (outcome === 'unknown-message') {
      // A callback can beat the UPDATE that stores the sid after sending: retry with backoff.
      const attempts = job.opts.attempts ?? 1;
      if (job.attemptsMade + 1 < attempts)
        throw new MessageNotYetKnownError(`No outbound message with sid ${payload.providerSid} yet`);
      this.logger.warn(`Status ${payload.status} for unknown message ${payload.providerSid} dropped`);
    }
    return outcome;
  }

  /** The check-delivery endpoint reports both counts; without a conversation, the scheduled reconciliation. */
  @OnJob('delivery.check')
  async checkDelivery(payload: JobPayload<'delivery.check'>): Promise<JobResult<'delivery.check'>> {
    const { checked, updated } =
      payload.conversationId === undefined
        ? await this.statuses.reconcileStale()
        : await this.statuses.checkConversation(payload.conversationId);
    return { changed: updated, checked };
  }
}
