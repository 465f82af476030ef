import { Injectable } from '@nestjs/common';
import type { JobPayload, JobResult } from '@sprout/contracts';
import { type Job, OnJob } from '@sprout/platform';
import { ImageAnalysisService } from './image-analysis.service';

@Injectable()
export class ImageAnalysisProcessor {
  constructor(private readonly analysis: ImageAnalysisService) {}

  /** One media item of an inbound MMS (ai-responder adds it as a child of the reply). */
  @OnJob('image.analyze')
  async handle(payload: JobPayload<'image.analyze'>, job: Job): Promise<JobResult<'image.analyze'>> {
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    return this.analysis.analyze(payload, { final });
  }
}
