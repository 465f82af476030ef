import { Injectable } from '@nestjs/common';
import type { JobPayload, JobResult } from '@sprout/contracts';
import { type Job, OnJob } from '@sprout/platform';
import { DelayedError } from 'bullmq';
import { OutboundService } from './outbound.service';

@Injectable()
export class OutboundProcessor {
  constructor(private readonly outbound: OutboundService) {}

  @OnJob('sms.outbound')
  async send(payload: JobPayload<'sms.outbound'>, job: Job): Promise<JobResult<'sms.outbound'>> {
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const outcome = await this.outbound.send(payload.messageId, finalAttempt);
    if (typeof outcome === 'string') return outcome;
    // Paced or held: back to Redis as a delayed job, freeing the worker slot; no attempt is used.
    if (job.token === undefined) throw new Error(`Job ${job.id ?? '?'} has no lock token to delay it with`);
    await job.moveToDelayed(Date.now() + outcome.waitMs, job.token);
    throw new DelayedError();
  }
}
