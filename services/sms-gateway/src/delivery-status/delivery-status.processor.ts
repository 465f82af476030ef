import { Injectable, Logger } from '@nestjs/common';
import type { JobPayload, JobResult } from '@sprout/contracts';
import { type Job, OnJob } from '@sprout/platform';
import { parseDeliveryStatus } from '@sprout/sms';
import { DeliveryStatusService, type StatusOutcome } from './delivery-status.service';

/** Thrown while the message of a callback is not stored yet (the send is still being recorded). */
class MessageNotYetKnownError extends Error {}

@Injectable()
export class DeliveryStatusProcessor {
  private readonly logger = new Logger(DeliveryStatusProcessor.name);

  constructor(private readonly statuses: DeliveryStatusService) {}

  /**
   * Applies the job's callbacks in their order of arrival (one batch of reads and writes for all
   * of them). Callbacks that beat the UPDATE storing their sid after sending are retried alone:
   * the job keeps only them and fails this attempt, so the others are not applied twice.
   */
  @OnJob('sms.status')
  async applyStatus(payload: JobPayload<'sms.status'>, job: Job): Promise<JobResult<'sms.status'>> {
    const result = { updated: 0, unchanged: 0, unknownMessage: 0, ignored: 0 };
    const tracked = payload.callbacks.flatMap((callback, index) => {
      const status = parseDeliveryStatus(callback.status);
      return status === null ? [] : [{ index, update: { ...callback, status } }];
    });
    const applied = await this.statuses.applyInOrder(tracked.map((t) => t.update));
    const outcomes: Array<StatusOutcome | 'ignored'> = payload.callbacks.map(() => 'ignored');
    tracked.forEach((t, i) => {
      outcomes[t.index] = applied[i] ?? 'ignored';
    });
    const unknown = payload.callbacks.filter((_, index) => outcomes[index] === 'unknown-message');
    for (const outcome of outcomes) {
      if (outcome === 'updated') result.updated += 1;
      else if (outcome === 'unchanged') result.unchanged += 1;
      else if (outcome === 'ignored') result.ignored += 1;
      else result.unknownMessage += 1;
    }
    if (unknown.length > 0) {
      const attempts = job.opts.attempts ?? 1;
      if (job.attemptsMade + 1 < attempts) {
        await job.updateData({ callbacks: unknown });
        throw new MessageNotYetKnownError(
          `No outbound message with sid ${unknown.map((c) => c.providerSid).join(', ')} yet`,
        );
      }
      for (const callback of unknown)
        this.logger.warn(`Status ${callback.status} for unknown message ${callback.providerSid} dropped`);
    }
    return result;
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
