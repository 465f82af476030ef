import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { JobResult } from '@sprout/contracts';
import { JobQueues, OnJob } from '@sprout/platform';
import { PredictionsService } from './predictions.service';

export const PREDICT_SCHEDULER_ID = 'monitor-predict-every-minute';
export const PREDICT_EVERY_MS = 60_000;

@Injectable()
export class PredictionsProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly predictions: PredictionsService,
    private readonly queues: JobQueues,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queues.schedule('monitor.predict', PREDICT_SCHEDULER_ID, PREDICT_EVERY_MS, {});
  }

  /** Every minute, and on demand (the proactive page's Force Check). */
  @OnJob('monitor.predict')
  async handle(): Promise<JobResult<'monitor.predict'>> {
    return this.predictions.run();
  }
}
