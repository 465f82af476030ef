import { Injectable } from '@nestjs/common';
import type { JobPayload, SmsInboundJobResult } from '@sprout/contracts';
import { type Job, OnJob } from '@sprout/platform';
import { PipelineService } from './pipeline.service';

@Injectable()
export class PipelineProcessor {
  constructor(private readonly pipeline: PipelineService) {}

  /** The simulator waits for this result: the outcome and the reply's message id. */
  @OnJob('sms.inbound')
  async answer(payload: JobPayload<'sms.inbound'>, job: Job): Promise<SmsInboundJobResult> {
    return this.pipeline.reply(payload.messageId, job);
  }
}
