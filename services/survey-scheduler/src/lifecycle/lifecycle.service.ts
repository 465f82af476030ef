import { Inject, Injectable } from '@nestjs/common';
import { type CampaignStatus, DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS, SurveyCampaign } from '@sprout/domain';
import { LOGGER, Metrics } from '@sprout/platform';
import type { Logger } from 'pino';
import { DataSource, In } from 'typeorm';
import { type AudienceRule, audienceRuleOf, campaignStatusAt } from './campaign-rules';

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

/** Campaigns whose status can still change by date; paused and completed ones only get recounted. */
const DATE_DRIVEN: CampaignStatus[] = ['scheduled', 'live'];

@Injectable()
export class LifecycleService {
  private readonly transitionsTotal;
  private readonly targetedTotal;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: Metrics,
  ) {
    this.transitionsTotal = metrics.counter(
      'sprout_survey_campaign_transitions_total',
      'Campaign status changes',
      ['from', 'to'] as const,
    );
    this.targetedTotal = metrics.counter(
      'sprout_survey_deliveries_targeted_total',
      'Survey deliveries created (users targeted)',
    );
  }

  /**
   * One lifecycle pass: move campaigns to the status their dates give them, target the audience
   * of every live campaign, and recount totals and deliveries. Every step is idempotent.
   * With a campaign id, only that campaign (an admin just created or changed it).
   */
  async run(
    options: { campaignId?: string; now?: Date; idleTimeoutMs?: number } = {},
  ): Promise<LifecycleReport> {
    const now = options.now ?? new Date();
    const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS;
    const repository = this.dataSource.getRepository(SurveyCampaign);
    const campaigns =
      options.campaignId === undefined
        ? await repository.find({ where: { status: In(DATE_DRIVEN) } })
        : await repository.find({ where: { id: options.campaignId } });

    const transitions: CampaignTransition[] = [];
    let newlyTargeted = 0;
    for (const campaign of campaigns) {
      const next = campaignStatusAt(campaign, now);
      let status = campaign.status;
      if (next !== campaign.status && (await this.transition(campaign, next))) {
        transitions.push({ campaignId: campaign.id, from: campaign.status, to: next });
        status = next;
      }
      if (status === 'live')
        newlyTargeted += await this.target(campaign.id, audienceRuleOf(campaign), now, idleTimeoutMs);
    }
    await this.recount(options.campaignId);

    if (transitions.length > 0 || newlyTargeted > 0) {
      this.logger.info({ transitions, newlyTargeted }, 'survey lifecycle applied');
    }
    return { campaigns: campaigns.length, transitions, newlyTargeted };
  }

  /** Conditional on the status read: an admin's pause or a parallel run in between wins. */
  private async transition(campaign: SurveyCampaign, to: CampaignStatus): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(SurveyCampaign)
      .set({ status: to })
      .where('id = :id AND status = :from', { id: campaign.id, from: campaign.status })
      .execute();
    const changed = (result.affected ?? 0) > 0;
    if (changed) this.transitionsTotal.inc({ from: campaign.status, to });
    return changed;
  }

  /**
   * Creates a pending delivery for every user the rule targets who has none yet (the unique
   * campaign+user constraint makes a repeated or parallel run add nothing). Same rule as
   * campaign-rules' isTargeted.
   */
  private async target(
    campaignId: string,
    rule: AudienceRule,
    now: Date,
    idleTimeoutMs: number,
  ): Promise<number> {
    if (rule.existingUsersCreatedBefore === null && rule.newUsersCreatedFrom === null) return 0;
    const idleSince = new Date(now.getTime() - idleTimeoutMs);
    const rows: unknown = await this.dataSource.query(
      `INSERT INTO "survey_deliveries" ("campaign_id", "user_id")
       SELECT $1, u."id"
         FROM "users" u
        WHERE u."is_test_user" = false
          AND u."opted_out" = false
          AND (
                ($2::timestamptz IS NOT NULL AND u."created_at" < $2::timestamptz)
             OR ($3::timestamptz IS NOT NULL AND u."created_at" >= $3::timestamptz
                 AND (SELECT count(*) FROM (
                        SELECT 1 FROM "conversations" c
                         WHERE c."user_id" = u."id"
                           AND (c."ended_at" IS NOT NULL OR c."last_message_at" <= $4::timestamptz)
                         LIMIT $5) finished) >= $5)
              )
          AND NOT EXISTS (SELECT 1 FROM "survey_deliveries" d WHERE d."campaign_id" = $1 AND d."user_id" = u."id")
       ON CONFLICT ON CONSTRAINT "uq_survey_deliveries_campaign_id_user_id" DO NOTHING
       RETURNING "id"`,
      [
        campaignId,
        rule.existingUsersCreatedBefore,
        rule.newUsersCreatedFrom,
        idleSince,
        rule.newUserFinishedConversations,
      ],
    );
    const created = Array.isArray(rows) ? rows.length : 0;
    if (created > 0) this.targetedTotal.inc(created);
    return created;
  }

  /**
   * totalTargetUsers and deliveredCount from the deliveries themselves: the ai-responder marks a
   * delivery delivered (deliveredAt, conversationId), and this recount carries it to the campaign.
   */
  private async recount(campaignId: string | undefined): Promise<void> {
    await this.dataSource.query(
      `UPDATE "survey_campaigns" sc
          SET "total_target_users" = counts.total, "delivered_count" = counts.delivered
         FROM (SELECT c."id",
                      count(d."id")::int AS total,
                      (count(d."id") FILTER (WHERE d."delivered_at" IS NOT NULL OR d."conversation_id" IS NOT NULL))::int AS delivered
                 FROM "survey_campaigns" c
                 LEFT JOIN "survey_deliveries" d ON d."campaign_id" = c."id"
                WHERE $1::uuid IS NULL OR c."id" = $1::uuid
                GROUP BY c."id") counts
        WHERE sc."id" = counts."id"
          AND (sc."total_target_users" <> counts.total OR sc."delivered_count" <> counts.delivered)`,
      [campaignId ?? null],
    );
  }
}
