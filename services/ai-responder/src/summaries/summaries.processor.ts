import { Injectable } from '@nestjs/common';
import type { JobPayload } from '@sprout/contracts';
import { type Job, OnJob } from '@sprout/platform';
import { type SummaryResult, SummariesService } from './summaries.service';

@Injectable()
export class SummariesProcessor {
  constructor(private readonly summaries: SummariesService) {}

  @OnJob('conversation.summarize')
  async summarize(payload: JobPayload<'conversation.summarize'>, job: Job): Promise<SummaryResult> {
    return this.summaries.summarize(payload.conversationId, job);
  }
}
