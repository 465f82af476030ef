import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  type CampaignStatusValue,
  type CreateSurveyCampaignRequest,
  SURVEY_CAMPAIGN_NOT_FOUND,
  type SurveyCampaignDto,
  type SurveyDeliveryDto,
  campaignTransitionRefusal,
} from '@sprout/contracts';
import { JobQueues, LOGGER } from '@sprout/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

interface CampaignRow {
  id: string;
  name: string;
  survey_url: string;
  status: CampaignStatusValue;
  start_date: Date;
  end_date: Date | null;
  created_at: Date;
  delivered_count: number;
  total_target_users: number;
  target_new_users: boolean;
  target_existing_users: boolean;
}

/**
 * A campaign's columns as the API shows them: deliveredCount is the column plus the shard rows the
 * replies count on (so no single row is hot), a handful of rows per campaign.
 */
const CAMPAIGN_COLUMNS = `c."id", c."name", c."survey_url", c."status", c."start_date", c."end_date", c."created_at",
  (c."delivered_count" + coalesce((SELECT sum(s."delivered") FROM "survey_campaign_delivered_shards" s
                                    WHERE s."campaign_id" = c."id"), 0))::int AS "delivered_count",
  c."total_target_users", c."target_new_users", c."target_existing_users"`;

const toDto = (row: CampaignRow): SurveyCampaignDto => ({
  id: row.id,
  name: row.name,
  surveyUrl: row.survey_url,
  status: row.status,
  startDate: row.start_date.toISOString(),
  endDate: row.end_date?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  deliveredCount: row.delivered_count,
  totalTargetUsers: row.total_target_users,
  targetNewUsers: row.target_new_users,
  targetExistingUsers: row.target_existing_users,
});

/**
 * Survey campaigns for the console. Status changes are single conditional
 * statements, so an admin's action and the survey-scheduler's run never overwrite each other;
 * targeting and date-driven changes are the scheduler's (survey.lifecycle), told at once here.
 */
@Injectable()
export class SurveysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Every campaign, newest first. */
  async list(): Promise<SurveyCampaignDto[]> {
    const rows = await this.dataSource.query<CampaignRow[]>(
      `SELECT ${CAMPAIGN_COLUMNS} FROM "survey_campaigns" c ORDER BY c."created_at" DESC, c."id" DESC`,
    );
    return rows.map(toDto);
  }

  /** Live from now; the scheduler targets its audience in the background. */
  async create(request: CreateSurveyCampaignRequest): Promise<SurveyCampaignDto> {
    const [row] = await this.dataSource.query<CampaignRow[]>(
      `WITH c AS (
         INSERT INTO "survey_campaigns" ("name", "survey_url", "status", "start_date", "end_date",
                                         "target_new_users", "target_existing_users")
         VALUES ($1, $2, 'live', now(), $3, $4, $5)
         RETURNING *
       )
       SELECT ${CAMPAIGN_COLUMNS} FROM c`,
      [request.name, request.surveyUrl, request.endDate, request.targetNewUsers, request.targetExistingUsers],
    );
    if (row === undefined) throw new Error('The campaign was not created');
    await this.tellScheduler(row.id);
    return toDto(row);
  }

  /** live → paused; anything else is a 409 with the reason. */
  async pause(id: string): Promise<SurveyCampaignDto> {
    return this.move(id, 'pause', `"status" = 'live'`, 'paused');
  }

  /** paused → live while the end date has not passed; anything else is a 409 with the reason. */
  async start(id: string): Promise<SurveyCampaignDto> {
    const campaign = await this.move(
      id,
      'start',
      `"status" = 'paused' AND ("end_date" IS NULL OR "end_date" >= now())`,
      'live',
    );
    await this.tellScheduler(id);
    return campaign;
  }

  /** Pending deliveries carry the new URL: a reply reads it when it attaches the link. */
  async updateUrl(id: string, surveyUrl: string): Promise<SurveyCampaignDto> {
    const [rows] = await this.dataSource.query<[CampaignRow[], number]>(
      `UPDATE "survey_campaigns" c SET "survey_url" = $2 WHERE c."id" = $1 RETURNING ${CAMPAIGN_COLUMNS}`,
      [id, surveyUrl],
    );
    const row = rows[0];
    if (row === undefined) throw new NotFoundException(SURVEY_CAMPAIGN_NOT_FOUND);
    return toDto(row);
  }

  /**
   * The latest delivered first (a partial index of the delivered ones), then pending ones (the
   * campaign+user index), `limit` in all; the total is the campaign's totalTargetUsers.
   */
  async deliveries(id: string, limit: number): Promise<{ deliveries: SurveyDeliveryDto[]; total: number }> {
    const [campaign] = await this.dataSource.query<Array<{ total: number }>>(
      `SELECT "total_target_users" AS total FROM "survey_campaigns" WHERE "id" = $1`,
      [id],
    );
    if (campaign === undefined) throw new NotFoundException(SURVEY_CAMPAIGN_NOT_FOUND);
    const rows = await this.dataSource.query<
      Array<{ id: string; phone_number: string; delivered_at: Date | null; conversation_id: string | null }>
    >(
      `(SELECT d."id", u."phone_number", d."delivered_at", d."conversation_id"
          FROM "survey_deliveries" d JOIN "users" u ON u."id" = d."user_id"
         WHERE d."campaign_id" = $1 AND d."delivered_at" IS NOT NULL
         ORDER BY d."delivered_at" DESC
         LIMIT $2)
       UNION ALL
       (SELECT d."id", u."phone_number", d."delivered_at", d."conversation_id"
          FROM "survey_deliveries" d JOIN "users" u ON u."id" = d."user_id"
         WHERE d."campaign_id" = $1 AND d."delivered_at" IS NULL
         ORDER BY d."user_id"
         LIMIT $2)
       LIMIT $2`,
      [id, limit],
    );
    return {
      deliveries: rows.map((r) => ({
        id: r.id,
        phoneNumber: r.phone_number,
        deliveredAt: r.delivered_at?.toISOString() ?? null,
        conversationId: r.conversation_id,
      })),
      total: campaign.total,
    };
  }

  /** One conditional status change; when it does not apply, 404 or 409 with the reason. */
  private async move(
    id: string,
    action: 'pause' | 'start',
    allowedWhen: string,
    to: CampaignStatusValue,
  ): Promise<SurveyCampaignDto> {
    const [rows] = await this.dataSource.query<[CampaignRow[], number]>(
      `UPDATE "survey_campaigns" c SET "status" = $2 WHERE c."id" = $1 AND ${allowedWhen}
       RETURNING ${CAMPAIGN_COLUMNS}`,
      [id, to],
    );
    const moved = rows[0];
    if (moved !== undefined) {
      this.logger.info({ campaignId: id, action }, 'survey campaign changed');
      return toDto(moved);
    }
    const [current] = await this.dataSource.query<
      Array<{ status: CampaignStatusValue; end_date: Date | null }>
    >(`SELECT "status", "end_date" FROM "survey_campaigns" WHERE "id" = $1`, [id]);
    if (current === undefined) throw new NotFoundException(SURVEY_CAMPAIGN_NOT_FOUND);
    throw new ConflictException(
      campaignTransitionRefusal(action, current.status, current.end_date?.toISOString() ?? null),
    );
  }

  /**
   * Asks the survey-scheduler to run for this campaign now. A failure is only logged: the change
   * is saved, and the scheduler's every-minute run picks the campaign up anyway.
   */
  private async tellScheduler(campaignId: string): Promise<void> {
    try {
      await this.queues.enqueue('survey.lifecycle', { campaignId });
    } catch (error) {
      this.logger.warn(
        { err: error, campaignId },
        'survey.lifecycle not enqueued; the next scheduled run applies it',
      );
    }
  }
}
