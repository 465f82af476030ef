import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { JobPayload, JobResult } from '@sprout/contracts';
import { JobQueues, LOGGER, OnJob } from '@sprout/platform';
import type { Logger } from 'pino';
import { LifecycleService } from './lifecycle.service';

/** The repeatable run's scheduler id: upserting it again on every start keeps exactly one. */
export const LIFECYCLE_SCHEDULER_ID = 'survey-lifecycle-every-minute';
export const LIFECYCLE_EVERY_MS = 60_000;

@Injectable()
export class LifecycleProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly lifecycle: LifecycleService,
    private readonly queues: JobQueues,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queues.schedule('survey.lifecycle', LIFECYCLE_SCHEDULER_ID, LIFECYCLE_EVERY_MS, {});
    this.logger.info({ everyMs: LIFECYCLE_EVERY_MS }, 'survey lifecycle scheduled');
  }

  /**
   * Every minute for all campaigns; on demand (api-gateway, on a change) for one campaign. A
   * campaign deleted in the meantime is simply not found.
   */
  @OnJob('survey.lifecycle')
  async handle(payload: JobPayload<'survey.lifecycle'>): Promise<JobResult<'survey.lifecycle'>> {
    return this.lifecycle.run(payload.campaignId === undefined ? {} : { campaignId: payload.campaignId });
  }
}
