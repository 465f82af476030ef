import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { CampaignStatus } from '@sprout/domain';
import { LOGGER, Metrics } from '@sprout/platform';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import { TARGETING_SETTLE_MS } from './campaign-rules';

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
export const TARGETING_BATCH_USERS = 10_000;

/**
 * campaignStatusAt (campaign-rules) as SQL: past the end date everything but completed completes,
 * a scheduled campaign goes live at its start date, the rest stays.
 */
const NEXT_STATUS_SQL = `CASE
    WHEN c."status" = 'completed' THEN 'completed'
    WHEN c."end_date" IS NOT NULL AND $1::timestamptz > c."end_date" THEN 'completed'
    WHEN c."status" = 'scheduled' THEN CASE WHEN $1::timestamptz >= c."start_date" THEN 'live' ELSE 'scheduled' END
    ELSE c."status" END`;

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

@Injectable()
export class LifecycleService implements BeforeApplicationShutdown {
  private readonly transitionsTotal;
  private readonly targetedTotal;
  private stopping = false;

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
    const [{ looked } = { looked: 0 }] = await this.dataSource.query<Array<{ looked: number }>>(
      `SELECT count(*)::int AS looked FROM "survey_campaigns"
        WHERE ($1::uuid IS NULL AND "status" IN ('scheduled', 'live', 'paused')) OR "id" = $1::uuid`,
      [campaignId],
    );
    const transitions = await this.transition(campaignId, now);
    const live = await this.dataSource.query<Array<{ id: string }>>(
      `SELECT "id" FROM "survey_campaigns" WHERE "status" = 'live' AND ($1::uuid IS NULL OR "id" = $1::uuid)
        ORDER BY "created_at", "id"`,
      [campaignId],
    );

    let newlyTargeted = 0;
    for (const { id } of live) {
      newlyTargeted += await this.target(id, now, options.batchSize ?? TARGETING_BATCH_USERS);
    }
    if (transitions.length > 0 || newlyTargeted > 0) {
      this.logger.info({ transitions, newlyTargeted }, 'survey lifecycle applied');
    }
    return { campaigns: looked, transitions, newlyTargeted };
  }

  /**
   * Every due status change in one statement. Conditional on the status read (re-checked on the
   * locked row), so an admin's pause or resume in between wins until the next run.
   */
  private async transition(campaignId: string | null, now: Date): Promise<CampaignTransition[]> {
    // An UPDATE answers [rows, affected count] through TypeORM.
    const [rows] = await this.dataSource.query<
      [Array<{ id: string; from: CampaignStatus; to: CampaignStatus }>, number]
    >(
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
    for (const t of rows) this.transitionsTotal.inc({ from: t.from, to: t.to });
    return rows.map((t) => ({ campaignId: t.id, from: t.from, to: t.to }));
  }

  /** Walks a live campaign's unvisited users batch by batch; answers the deliveries created. */
  private async target(campaignId: string, now: Date, batchSize: number): Promise<number> {
    let created = 0;
    while (!this.stopping) {
      const batch = await this.dataSource.transaction((manager) =>
        this.targetBatch(manager, campaignId, now, batchSize),
      );
      created += batch.inserted;
      if (batch.inserted > 0) this.targetedTotal.inc(batch.inserted);
      if (batch.scanned < batchSize) break;
    }
    return created;
  }

  /**
   * One batch: the next `batchSize` users after the walk's position, a pending delivery for each
   * targeted one (the campaign+user constraint keeps one per user whatever runs in parallel),
   * and the position and totalTargetUsers moved by what was visited and inserted, in one
   * statement. A per-campaign advisory lock keeps two runs from walking the same batch.
   */
  private async targetBatch(
    manager: EntityManager,
    campaignId: string,
    now: Date,
    batchSize: number,
  ): Promise<{ scanned: number; inserted: number }> {
    const nothing = { scanned: 0, inserted: 0 };
    const [lock] = await manager.query<Array<{ locked: boolean }>>(
      `SELECT pg_try_advisory_xact_lock(hashtextextended('survey-targeting:' || $1::text, 0)) AS locked`,
      [campaignId],
    );
    if (lock?.locked !== true) return nothing;
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
      [campaignId, new Date(now.getTime() - TARGETING_SETTLE_MS)],
    );
    if (walk === undefined || walk.done) return nothing;
    const [result] = await manager.query<Array<{ scanned: number; inserted: number }>>(
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
    return result ?? nothing;
  }
}
