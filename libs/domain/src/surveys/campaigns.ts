import type { DataSource } from 'typeorm';
import type { CampaignStatus } from '../types';

// Survey campaigns for the console. Status changes are single conditional statements, so an
// admin's action and the survey-scheduler's run never overwrite each other.

export interface CampaignRow {
  id: string;
  name: string;
  survey_url: string;
  status: CampaignStatus;
  start_date: Date;
  end_date: Date | null;
  created_at: Date;
  delivered_count: number;
  total_target_users: number;
  target_new_users: boolean;
  target_existing_users: boolean;
}

/**
 * A campaign's columns as the console shows them: deliveredCount is the column plus the shard rows
 * the replies count on (no hot row), a handful of rows per campaign.
 */
const CAMPAIGN_COLUMNS = `c."id", c."name", c."survey_url", c."status", c."start_date", c."end_date", c."created_at",
  (c."delivered_count" + coalesce((SELECT sum(s."delivered") FROM "survey_campaign_delivered_shards" s
                                    WHERE s."campaign_id" = c."id"), 0))::int AS "delivered_count",
  c."total_target_users", c."target_new_users", c."target_existing_users"`;

/** Every campaign, newest first. */
export async function surveyCampaigns(dataSource: DataSource): Promise<CampaignRow[]> {
  return dataSource.query<CampaignRow[]>(
    `SELECT ${CAMPAIGN_COLUMNS} FROM "survey_campaigns" c ORDER BY c."created_at" DESC, c."id" DESC`,
  );
}

export interface NewCampaign {
  name: string;
  surveyUrl: string;
  endDate: Date | null;
  targetNewUsers: boolean;
  targetExistingUsers: boolean;
}

/** Creates a campaign, live from now. */
export async function createSurveyCampaign(
  dataSource: DataSource,
  campaign: NewCampaign,
): Promise<CampaignRow | undefined> {
  const [row] = await dataSource.query<CampaignRow[]>(
    `WITH c AS (
         INSERT INTO "survey_campaigns" ("name", "survey_url", "status", "start_date", "end_date",
                                         "target_new_users", "target_existing_users")
         VALUES ($1, $2, 'live', now(), $3, $4, $5)
         RETURNING *
       )
       SELECT ${CAMPAIGN_COLUMNS} FROM c`,
    [
      campaign.name,
      campaign.surveyUrl,
      campaign.endDate,
      campaign.targetNewUsers,
      campaign.targetExistingUsers,
    ],
  );
  return row;
}

/** Sets the campaign's URL; undefined when there is no such campaign. */
export async function setSurveyCampaignUrl(
  dataSource: DataSource,
  id: string,
  surveyUrl: string,
): Promise<CampaignRow | undefined> {
  const [rows] = await dataSource.query<[CampaignRow[], number]>(
    `UPDATE "survey_campaigns" c SET "survey_url" = $2 WHERE c."id" = $1 RETURNING ${CAMPAIGN_COLUMNS}`,
    [id, surveyUrl],
  );
  return rows[0];
}

/** When a status change applies: pause a live campaign; start a paused one whose end date has not passed. */
const ALLOWED_WHEN = {
  pause: `"status" = 'live'`,
  start: `"status" = 'paused' AND ("end_date" IS NULL OR "end_date" >= now())`,
} as const;
const MOVED_TO = { pause: 'paused', start: 'live' } as const;

/** Pauses or starts the campaign in one conditional statement; undefined when that does not apply. */
export async function moveSurveyCampaign(
  dataSource: DataSource,
  id: string,
  action: keyof typeof ALLOWED_WHEN,
): Promise<CampaignRow | undefined> {
  const [rows] = await dataSource.query<[CampaignRow[], number]>(
    `UPDATE "survey_campaigns" c SET "status" = $2 WHERE c."id" = $1 AND ${ALLOWED_WHEN[action]}
       RETURNING ${CAMPAIGN_COLUMNS}`,
    [id, MOVED_TO[action]],
  );
  return rows[0];
}

/** The campaign's status and end date; undefined when there is no such campaign. */
export async function surveyCampaignStatus(
  dataSource: DataSource,
  id: string,
): Promise<{ status: CampaignStatus; end_date: Date | null } | undefined> {
  const [current] = await dataSource.query<Array<{ status: CampaignStatus; end_date: Date | null }>>(
    `SELECT "status", "end_date" FROM "survey_campaigns" WHERE "id" = $1`,
    [id],
  );
  return current;
}

/** The number of users the campaign targets; undefined when there is no such campaign. */
export async function surveyCampaignTargetTotal(
  dataSource: DataSource,
  id: string,
): Promise<number | undefined> {
  const [campaign] = await dataSource.query<Array<{ total: number }>>(
    `SELECT "total_target_users" AS total FROM "survey_campaigns" WHERE "id" = $1`,
    [id],
  );
  return campaign?.total;
}

export interface SurveyDeliveryRow {
  id: string;
  phone_number: string;
  delivered_at: Date | null;
  conversation_id: string | null;
}

/**
 * The latest delivered first (a partial index of the delivered ones), then pending ones (the
 * campaign+user index), `limit` in all.
 */
export async function surveyCampaignDeliveries(
  dataSource: DataSource,
  id: string,
  limit: number,
): Promise<SurveyDeliveryRow[]> {
  return dataSource.query<SurveyDeliveryRow[]>(
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
}
