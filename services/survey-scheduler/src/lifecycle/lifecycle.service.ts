import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import {
  type CampaignStatus,
  applyDueCampaignStatuses,
  lifecycleCampaignCount,
  liveCampaignIds,
  targetCampaignBatch,
} from '@sprout/domain';
import { LOGGER, Metrics } from '@sprout/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { TARGETING_SETTLE_MS } from './campaign-rules';
import { surveySchedulerMetrics } from '../metrics';

export interface CampaignTransition {
  campaignId: string;
  from: CampaignStatus;
  to: CampaignStatus;
}

export interface LifecycleReport {
  /** Campaigns looked at. */
  campaigns: number;
  transitions: CampaignTransition[];
  /** Deliveries created by this run (users newly targeted). */
  newlyTargeted: number;
}

export interface LifecycleOptions {
  /** Only this campaign (an admin just created or changed it); default every campaign. */
  campaignId?: string;
  now?: Date;
  /** Users visited per targeting batch (one transaction each). */
  batchSize?: number;
}

/** Users a targeting batch visits: one transaction of a few hundred milliseconds at most. */
const TARGETING_BATCH_USERS = 10_000;

@Injectable()
export class LifecycleService implements BeforeApplicationShutdown {
  private readonly metrics;
  private stopping = false;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: Metrics,
  ) {
    this.metrics = surveySchedulerMetrics(metrics);
  }

  /** A walk in progress stops after its current batch; the next run resumes it. */
  beforeApplicationShutdown(): void {
    this.stopping = true;
  }

  /**
   * One lifecycle pass: move campaigns to the status their dates give them, then walk the users
   * each live campaign has not visited yet, in batches, creating a pending delivery for each
   * targeted one. Every step is idempotent and safe beside a concurrent run.
   */
  async run(options: LifecycleOptions = {}): Promise<LifecycleReport> {
    const now = options.now ?? new Date();
    const campaignId = options.campaignId ?? null;
    const looked = await lifecycleCampaignCount(this.dataSource, campaignId);
    const transitions = await this.transition(campaignId, now);
    const live = await liveCampaignIds(this.dataSource, campaignId);

    let newlyTargeted = 0;
    for (const id of live) {
      newlyTargeted += await this.target(id, now, options.batchSize ?? TARGETING_BATCH_USERS);
    }
    if (transitions.length > 0 || newlyTargeted > 0) {
      this.logger.info({ transitions, newlyTargeted }, 'survey lifecycle applied');
    }
    return { campaigns: looked, transitions, newlyTargeted };
  }

  /** Applies every due status change (an admin's pause or resume in between wins), counted. */
  private async transition(campaignId: string | null, now: Date): Promise<CampaignTransition[]> {
    const rows = await applyDueCampaignStatuses(this.dataSource, campaignId, now);
    for (const t of rows) this.metrics.campaignTransitions.inc({ from: t.from, to: t.to });
    return rows.map((t) => ({ campaignId: t.id, from: t.from, to: t.to }));
  }

  /** Walks a live campaign's unvisited users batch by batch; answers the deliveries created. */
  private async target(campaignId: string, now: Date, batchSize: number): Promise<number> {
    // The walk only goes past users old enough that no transaction still adding them is open.
    const settledBefore = new Date(now.getTime() - TARGETING_SETTLE_MS);
    let created = 0;
    while (!this.stopping) {
      const batch = await targetCampaignBatch(this.dataSource, campaignId, settledBefore, batchSize);
      created += batch.inserted;
      if (batch.inserted > 0) this.metrics.deliveriesTargeted.inc(batch.inserted);
      if (batch.scanned < batchSize) break;
    }
    return created;
  }
}
