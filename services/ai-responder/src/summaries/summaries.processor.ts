import { Injectable } from '@nestjs/common';
import type { JobPayload, JobResult } from '@sprout/contracts';
import { type Job, OnJob } from '@sprout/platform';
import { SummariesService } from './summaries.service';

@Injectable()
export class SummariesProcessor {
  constructor(private readonly summaries: SummariesService) {}

  @OnJob('conversation.summarize')
  async summarize(
    payload: JobPayload<'conversation.summarize'>,
    job: Job,
  ): Promise<JobResult<'conversation.summarize'>> {
    return this.summaries.summarize(payload.conversationId, job);
  }
}
