import { Inject, Injectable, Logger } from '@nestjs/common';
import { type JobResult, jobDefinitions } from '@sprout/contracts';
import {
  type AwaitingReplyRow,
  awaitingRepliesBetween,
  claimAwaitingReplyAttempt,
  expireAwaitingReplies,
  settleAwaitingReply,
} from '@sprout/domain';
import { CONFIG, JobQueues, Metrics } from '@sprout/platform';
import { DataSource } from 'typeorm';
import type { SmsGatewayConfig } from '../config';
import { smsGatewayMetrics } from '../metrics';

export type SweepResult = JobResult<'sms.inbound-sweep'>;
type Outcome = Exclude<keyof SweepResult, 'expired'>;

const METRIC_OUTCOMES: Record<keyof SweepResult, string> = {
  enqueued: 'enqueued',
  retried: 'retried',
  inQueue: 'in-queue',
  settled: 'settled',
  abandoned: 'abandoned',
  expired: 'expired',
};

/**
 * Redrives what this deployment owes and has lost track of. It reads only the awaiting_replies
 * outbox: rows record_inbound() wrote when the webhook (or the simulator) stored a text to answer
 * or a keyword to confirm, and that nothing has settled since. A row older than
 * SMS_INBOUND_SWEEP_AFTER_MS (its webhook has long finished) whose job is not in Redis (sms-gateway
 * killed between the commit and the add) is enqueued again; one whose job failed for good is
 * retried with a fresh set of attempts. Each of those counts an attempt on the row; after
 * SMS_INBOUND_SWEEP_MAX_ATTEMPTS the row is dropped and logged, as are rows older than
 * SMS_INBOUND_SWEEP_MAX_AGE_MS. At most SMS_INBOUND_SWEEP_BATCH rows per sweep, oldest first.
 *
 * Texts nobody owes an answer (seeds, imports, benches, anything stored before the outbox) have no
 * row, so the sweep never sends them anything. Two sweeps at once are harmless: the job id is the
 * webhook's (`inbound-<id>`, `outbound-<id>`), and an attempt is claimed on the row before the
 * job is touched, so one of them redrives it.
 */
@Injectable()
export class InboundSweepService {
  private readonly logger = new Logger(InboundSweepService.name);
  private readonly metrics;

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
    metrics: Metrics,
  ) {
    this.metrics = smsGatewayMetrics(metrics);
  }

  async sweep(now: Date = new Date()): Promise<SweepResult> {
    const { smsInboundSweepAfterMs: afterMs, smsInboundSweepMaxAgeMs: maxAgeMs } = this.config;
    const batch = this.config.smsInboundSweepBatch;
    const from = new Date(now.getTime() - maxAgeMs);
    const until = new Date(now.getTime() - afterMs);
    const result: SweepResult = { enqueued: 0, retried: 0, inQueue: 0, settled: 0, abandoned: 0, expired: 0 };

    const expired = await expireAwaitingReplies(this.dataSource, from, batch);
    result.expired = expired.length;
    if (expired.length > 0) {
      this.logger.warn(
        `${expired.length} text(s) older than SMS_INBOUND_SWEEP_MAX_AGE_MS still awaiting a reply, given up: ${expired.map((r) => `${r.messageId} (${r.queue})`).join(', ')}`,
      );
    }

    const rows = until > from ? await awaitingRepliesBetween(this.dataSource, from, until, batch) : [];
    for (const row of rows) {
      try {
        result[await this.redrive(row, now)] += 1;
      } catch (error) {
        // One row's trouble (Redis refused the add) does not hold up the others; the next sweep tries again.
        this.logger.warn(
          `Awaiting reply ${row.messageId} (${row.queue}) not redriven: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }

    for (const [outcome, label] of Object.entries(METRIC_OUTCOMES) as Array<[keyof SweepResult, string]>) {
      if (result[outcome] > 0) this.metrics.inboundSweep.inc({ outcome: label }, result[outcome]);
    }
    return result;
  }

  private async redrive(row: AwaitingReplyRow, now: Date): Promise<Outcome> {
    const queue = this.queues.queue(row.queue);
    const jobId = jobDefinitions[row.queue].jobId?.({ messageId: row.messageId }) ?? '';
    const state = await queue.getJobState(jobId);
    const age = `stored ${Math.round((now.getTime() - row.createdAt.getTime()) / 1000)} s ago`;
    if (state === 'completed') {
      // Its job ran to the end without settling the row (a worker from before the outbox).
      await settleAwaitingReply(this.dataSource, row.messageId);
      this.logger.warn(`Message ${row.messageId} (${row.queue}) ${age}: its job had completed; row settled`);
      return 'settled';
    }
    if (state !== 'failed' && state !== 'unknown') return 'inQueue';

    if (row.attempts >= this.config.smsInboundSweepMaxAttempts) {
      await settleAwaitingReply(this.dataSource, row.messageId);
      this.logger.warn(
        `Message ${row.messageId} (${row.queue}) ${age}: its job is ${state === 'failed' ? 'failed' : 'lost'} again after ${row.attempts} sweep attempt(s); given up`,
      );
      return 'abandoned';
    }
    const quietSince = new Date(now.getTime() - this.config.smsInboundSweepAfterMs);
    const attempt = await claimAwaitingReplyAttempt(
      this.dataSource,
      row.messageId,
      row.attempts,
      now,
      quietSince,
    );
    // Another sweep took this attempt, or the text was settled meanwhile.
    if (attempt === null) return 'inQueue';

    // A failed job stays in the failed set under its id, where an add with that id adds nothing.
    const failed = state === 'failed' ? await queue.getJob(jobId) : undefined;
    if (failed !== undefined) {
      await failed.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      this.logger.warn(
        `Message ${row.messageId} (${row.queue}) ${age}: its job had failed for good; retried (sweep attempt ${attempt})`,
      );
      return 'retried';
    }
    // Idempotent: a job added meanwhile under the same id makes this add a no-op.
    await this.queues.enqueue(row.queue, { messageId: row.messageId });
    this.logger.warn(
      `Message ${row.messageId} (${row.queue}) ${age} had no job; enqueued again (sweep attempt ${attempt})`,
    );
    return 'enqueued';
  }
}
