import { Inject, Injectable, Logger } from '@nestjs/common';
import { jobDefinitions } from '@sprout/contracts';
import { replyIdSql } from '@sprout/domain';
import { CONFIG, JobQueues, Metrics } from '@sprout/platform';
import { DataSource } from 'typeorm';
import type { SmsGatewayConfig } from '../config';

/**
 * What the webhook leaves to a job, still undone: a text from Twilio (not a keyword) with no reply
 * written whose sender has not opted out, nor opted out or in since the text (its job may have
 * ended 'opted-out' and been trimmed from Redis since) (sms.inbound), or a keyword's confirmation
 * still queued (sms.outbound). Read on idx_messages_created_at over the window.
 */
const UNDONE = `
  ((m.direction = 'inbound' AND m.kind = 'reply' AND m.provider_sid IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM messages r WHERE r.id = ${replyIdSql('m.id')})
      AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = m.user_id AND u.opted_out)
      AND NOT EXISTS (SELECT 1 FROM consent_events ce
                       WHERE ce.user_id = m.user_id AND ce.created_at > m.created_at))
   OR (m.direction = 'outbound' AND m.kind = 'consent' AND m.status = 'queued'))`;

export interface SweepResult {
  /** Undone texts with no job in Redis: enqueued again. */
  enqueued: number;
  /** Undone texts whose job is still in Redis (waiting, delayed, active, or finished and retained). */
  inQueue: number;
  /** Undone texts that left the window since the previous sweep: left alone, logged. */
  expired: number;
}

/**
 * Finds inbound texts stored but never enqueued (sms-gateway killed between the webhook's commit
 * and its queue add; the edge's or Twilio's retry then finds the MessageSid stored and, had it
 * died there too, nothing re-adds the job) and enqueues them again. Only texts older than
 * SMS_INBOUND_SWEEP_AFTER_MS (their webhook has long finished) and younger than
 * SMS_INBOUND_SWEEP_MAX_AGE_MS, at most SMS_INBOUND_SWEEP_BATCH per sweep, oldest first (closest to leaving the window; a
 * backlog of queued texts does not hide an older lost one for long).
 *
 * Safe with any number of replicas sweeping at once: the job id is the webhook's (the queue's
 * definition, `inbound-<message id>`), so adding a job that is still waiting, active or retained
 * adds nothing; a job run twice finds its reply (ai-responder answers 'already-replied') and the
 * send's job id and the outbound row's status keep the reply from being sent twice.
 */
@Injectable()
export class InboundSweepService {
  private readonly logger = new Logger(InboundSweepService.name);
  private readonly outcomes;

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
    metrics: Metrics,
  ) {
    this.outcomes = metrics.counter(
      'sprout_inbound_sweep_total',
      'Texts the inbound sweep found undone, by outcome (enqueued, in-queue, expired)',
      ['outcome'],
    );
  }

  async sweep(now: Date = new Date()): Promise<SweepResult> {
    const { smsInboundSweepAfterMs: afterMs, smsInboundSweepMaxAgeMs: maxAgeMs } = this.config;
    const from = new Date(now.getTime() - maxAgeMs);
    const until = new Date(now.getTime() - afterMs);
    const rows: Array<{ id: string; direction: 'inbound' | 'outbound'; created_at: Date }> =
      until > from
        ? await this.dataSource.query(
            `SELECT m.id, m.direction, m.created_at FROM messages m
              WHERE m.created_at >= $1 AND m.created_at < $2 AND ${UNDONE}
              ORDER BY m.created_at LIMIT $3`,
            [from, until, this.config.smsInboundSweepBatch],
          )
        : [];

    const result: SweepResult = { enqueued: 0, inQueue: 0, expired: 0 };
    for (const row of rows) {
      const queue = row.direction === 'inbound' ? 'sms.inbound' : 'sms.outbound';
      const jobId = jobDefinitions[queue].jobId?.({ messageId: row.id }) ?? '';
      if ((await this.queues.queue(queue).getJob(jobId)) !== undefined) {
        result.inQueue += 1;
        continue;
      }
      // Idempotent: a replica that added it meanwhile makes this add a no-op.
      await this.queues.enqueue(queue, { messageId: row.id });
      result.enqueued += 1;
      this.logger.warn(
        `Message ${row.id} (${row.direction}) stored ${Math.round((now.getTime() - row.created_at.getTime()) / 1000)} s ago had no ${queue} job; enqueued again`,
      );
    }

    // The undone texts that have just left the window (since about one sweep ago) are only counted.
    const expired: Array<{ id: string }> = await this.dataSource.query(
      `SELECT m.id FROM messages m
        WHERE m.created_at >= $1 AND m.created_at < $2 AND ${UNDONE}
        ORDER BY m.created_at DESC LIMIT $3`,
      [new Date(from.getTime() - this.config.smsInboundSweepEveryMs), from, this.config.smsInboundSweepBatch],
    );
    result.expired = expired.length;
    if (expired.length > 0) {
      this.logger.warn(
        `${expired.length} undone message(s) older than SMS_INBOUND_SWEEP_MAX_AGE_MS left alone: ${expired.map((r) => r.id).join(', ')}`,
      );
    }

    if (result.enqueued > 0) this.outcomes.inc({ outcome: 'enqueued' }, result.enqueued);
    if (result.inQueue > 0) this.outcomes.inc({ outcome: 'in-queue' }, result.inQueue);
    if (result.expired > 0) this.outcomes.inc({ outcome: 'expired' }, result.expired);
    return result;
  }
}
