import { Injectable } from '@nestjs/common';
import type { JobPayload, JobResult } from '@sprout/contracts';
import { type Job, OnJob } from '@sprout/platform';
import { OutboundService } from './outbound.service';

@Injectable()
export class OutboundProcessor {
  constructor(private readonly outbound: OutboundService) {}

  @OnJob('sms.outbound')
  async send(payload: JobPayload<'sms.outbound'>, job: Job): Promise<JobResult<'sms.outbound'>> {
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    return this.outbound.send(payload.messageId, finalAttempt);
  }
}
