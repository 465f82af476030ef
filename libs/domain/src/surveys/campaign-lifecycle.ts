import type { DataSource, EntityManager } from 'typeorm';
import type { CampaignStatus } from '../types';

// The survey lifecycle's statements: campaigns moved to the status their dates give them, and
// live campaigns' audiences walked in (created_at, id) order, a pending delivery per targeted user.
// The rules these apply are also written as plain functions in survey-scheduler's campaign rules,
// where a test checks both agree.

export interface CampaignStatusChange {
  id: string;
  from: CampaignStatus;
  to: CampaignStatus;
}

/** Campaigns a lifecycle pass looks at: `campaignId` alone, or every scheduled, live and paused one. */
export async function lifecycleCampaignCount(db: DataSource, campaignId: string | null): Promise<number> {
  const [{ looked } = { looked: 0 }] = await db.query<Array<{ looked: number }>>(
    `SELECT count(*)::int AS looked FROM "survey_campaigns"
      WHERE ($1::uuid IS NULL AND "status" IN ('scheduled', 'live', 'paused')) OR "id" = $1::uuid`,
    [campaignId],
  );
  return looked;
}

/**
 * campaignStatusAt (campaign rules) as SQL: past the end date everything but completed completes,
 * a scheduled campaign goes live at its start date, the rest stays.
 */
const NEXT_STATUS_SQL = `CASE
    WHEN c."status" = 'completed' THEN 'completed'
    WHEN c."end_date" IS NOT NULL AND $1::timestamptz > c."end_date" THEN 'completed'
    WHEN c."status" = 'scheduled' THEN CASE WHEN $1::timestamptz >= c."start_date" THEN 'live' ELSE 'scheduled' END
    ELSE c."status" END`;

/**
 * Every due status change at `now` in one statement (of `campaignId` alone, or of all campaigns).
 * Conditional on the status read (re-checked on the locked row), so an admin's pause or resume in
 * between wins until the next run.
 */
export async function applyDueCampaignStatuses(
  db: DataSource,
  campaignId: string | null,
  now: Date,
): Promise<CampaignStatusChange[]> {
  // An UPDATE answers [rows, affected count] through TypeORM.
  const [rows] = await db.query<[CampaignStatusChange[], number]>(
    `WITH due AS (
       SELECT c."id", c."status" AS "from", ${NEXT_STATUS_SQL} AS "to"
         FROM "survey_campaigns" c
        WHERE c."status" IN ('scheduled', 'live', 'paused') AND ($2::uuid IS NULL OR c."id" = $2::uuid)
     )
     UPDATE "survey_campaigns" c
        SET "status" = due."to",
            -- A campaign going live counts its audience from its own deliveries (none, normally).
            "total_target_users" = CASE WHEN due."to" = 'live'
              THEN (SELECT count(*)::int FROM "survey_deliveries" d WHERE d."campaign_id" = c."id")
              ELSE c."total_target_users" END
       FROM due
      WHERE c."id" = due."id" AND due."to" <> due."from" AND c."status" = due."from"
     RETURNING c."id", due."from", due."to"`,
    [now, campaignId],
  );
  return rows;
}

/** Live campaigns (`campaignId` alone, or all), oldest first. */
export async function liveCampaignIds(db: DataSource, campaignId: string | null): Promise<string[]> {
  const rows = await db.query<Array<{ id: string }>>(
    `SELECT "id" FROM "survey_campaigns" WHERE "status" = 'live' AND ($1::uuid IS NULL OR "id" = $1::uuid)
      ORDER BY "created_at", "id"`,
    [campaignId],
  );
  return rows.map((row) => row.id);
}

/** Where a live campaign's walk stands, as text so microseconds survive the round trip. */
interface WalkRow {
  start_date: string;
  target_new_users: boolean;
  target_existing_users: boolean;
  from_at: string;
  from_id: string;
  until_at: string;
  done: boolean;
}

export interface TargetingBatch {
  /** Users visited. */
  scanned: number;
  /** Deliveries created. */
  inserted: number;
}

/**
 * One targeting batch of a live campaign, in one transaction: the next `batchSize` users after
 * the walk's position, created before `settledBefore`, a pending delivery for each targeted one
 * (the campaign+user constraint keeps one per user whatever runs in parallel), and the position
 * and totalTargetUsers moved by what was visited and inserted. A per-campaign advisory lock keeps
 * two runs from walking the same batch: the one that does not get it visits nothing.
 */
export function targetCampaignBatch(
  dataSource: DataSource,
  campaignId: string,
  settledBefore: Date,
  batchSize: number,
): Promise<TargetingBatch> {
  return dataSource.transaction(async (manager) => {
    const nothing = { scanned: 0, inserted: 0 };
    if (!(await lockCampaignTargeting(manager, campaignId))) return nothing;
    const walk = await campaignWalk(manager, campaignId, settledBefore);
    if (walk === undefined || walk.done) return nothing;
    return (await targetNextUsers(manager, campaignId, walk, batchSize)) ?? nothing;
  });
}

/** The campaign's targeting lock, held until the transaction ends; false when another run holds it. */
async function lockCampaignTargeting(manager: EntityManager, campaignId: string): Promise<boolean> {
  const [lock] = await manager.query<Array<{ locked: boolean }>>(
    `SELECT pg_try_advisory_xact_lock(hashtextextended('survey-targeting:' || $1::text, 0)) AS locked`,
    [campaignId],
  );
  return lock?.locked === true;
}

/** Where the live campaign's walk stands and where it ends; undefined when it is not live. */
async function campaignWalk(
  manager: EntityManager,
  campaignId: string,
  settledBefore: Date,
): Promise<WalkRow | undefined> {
  const [walk] = await manager.query<WalkRow[]>(
    `SELECT "start_date"::text, "target_new_users", "target_existing_users", w."from_at"::text,
            w."from_id"::text, w."until_at"::text,
            NOT ("target_new_users" OR "target_existing_users") OR w."from_at" >= w."until_at" AS "done"
       FROM "survey_campaigns" c,
            LATERAL (SELECT
              coalesce(c."targeted_through_created_at",
                       CASE WHEN c."target_existing_users" THEN '-infinity'::timestamptz
                            ELSE c."start_date" - interval '1 millisecond' END) AS "from_at",
              coalesce(c."targeted_through_user_id",
                       CASE WHEN c."target_existing_users" THEN '00000000-0000-0000-0000-000000000000'::uuid
                            ELSE 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid END) AS "from_id",
              CASE WHEN c."target_new_users" THEN $2::timestamptz
                   ELSE least($2::timestamptz, c."start_date") END AS "until_at") w
      WHERE c."id" = $1 AND c."status" = 'live'`,
    [campaignId, settledBefore],
  );
  return walk;
}

/** Visits the next users of the walk, creates the deliveries and moves the walk, in one statement. */
async function targetNextUsers(
  manager: EntityManager,
  campaignId: string,
  walk: WalkRow,
  batchSize: number,
): Promise<TargetingBatch | undefined> {
  const [result] = await manager.query<TargetingBatch[]>(
    `WITH batch AS (
       SELECT u."id", u."created_at", u."is_test_user", u."opted_out"
         FROM "users" u
        WHERE u."created_at" >= $2::timestamptz AND u."created_at" < $4::timestamptz
          AND (u."created_at", u."id") > ($2::timestamptz, $3::uuid)
        ORDER BY u."created_at", u."id"
        LIMIT $5
     ),
     inserted AS (
       INSERT INTO "survey_deliveries" ("campaign_id", "user_id")
       SELECT $1, b."id" FROM batch b
        WHERE NOT b."is_test_user" AND NOT b."opted_out"
          AND CASE WHEN b."created_at" >= $6::timestamptz THEN $7::boolean ELSE $8::boolean END
       ON CONFLICT ON CONSTRAINT "uq_survey_deliveries_campaign_id_user_id" DO NOTHING
       RETURNING 1
     ),
     last AS (SELECT "created_at", "id" FROM batch ORDER BY "created_at" DESC, "id" DESC LIMIT 1),
     moved AS (
       UPDATE "survey_campaigns" c
          SET "total_target_users" = c."total_target_users" + (SELECT count(*)::int FROM inserted),
              "targeted_through_created_at" = last."created_at",
              "targeted_through_user_id" = last."id"
         FROM last
        WHERE c."id" = $1
     )
     SELECT (SELECT count(*)::int FROM batch) AS scanned, (SELECT count(*)::int FROM inserted) AS inserted`,
    [
      campaignId,
      walk.from_at,
      walk.from_id,
      walk.until_at,
      batchSize,
      walk.start_date,
      walk.target_new_users,
      walk.target_existing_users,
    ],
  );
  return result;
}
