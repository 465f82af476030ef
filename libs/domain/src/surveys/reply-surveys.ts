import { type Db, managerOf } from '../db';

// Survey links inside replies: the survey-scheduler creates a pending delivery when it targets a
// user; the reply that carries the link marks it delivered, in the reply's transaction.

/** A pending survey delivery whose campaign is live, locked for this reply. */
export interface DueSurvey {
  deliveryId: string;
  campaignId: string;
  surveyUrl: string;
}

interface DueRow {
  id: string;
  campaign_id: string;
  survey_url: string;
}

/** Shards of a campaign's delivered count: concurrent replies (other backends) add to other rows. */
const DELIVERED_SHARDS = 8;

/**
 * The statement of the oldest due delivery for the user `$user` (its id, campaign_id and
 * survey_url), row-locked until the caller's transaction ends (the reply also holds the user's
 * row, so replies to one user never race for it). Existing users (created before the campaign
 * started) get it in their next reply, new users in their second conversation (`$conversation`,
 * the current one) or later; only while the campaign is live and before its end date. The
 * placeholders are the caller's, so the reply can read it inside another statement; `when`, a
 * condition that reads and locks nothing when false.
 */
export const dueSurveySql = (user: string, conversation: string, when = 'true'): string =>
  `SELECT d."id", d."campaign_id", c."survey_url"
       FROM "survey_deliveries" d
       JOIN "survey_campaigns" c ON c."id" = d."campaign_id"
       JOIN "users" u ON u."id" = d."user_id"
      WHERE ${when} AND d."user_id" = ${user} AND d."conversation_id" IS NULL AND d."delivered_at" IS NULL
        AND c."status" = 'live' AND c."start_date" <= now()
        AND (c."end_date" IS NULL OR c."end_date" >= now())
        AND NOT u."opted_out" AND NOT u."is_test_user"
        -- A new user (joined since the campaign started) only from their second conversation.
        AND (u."created_at" < c."start_date" OR EXISTS (
              SELECT 1 FROM "conversations" earlier, "conversations" current
               WHERE current."id" = ${conversation} AND earlier."user_id" = ${user} AND earlier."id" <> current."id"
                 AND earlier."started_at" <= current."started_at"))
      ORDER BY d."created_at", d."id"
      LIMIT 1
      FOR UPDATE OF d SKIP LOCKED`;

/** The oldest due delivery for this user (dueSurveySql), locked; null when none. */
export async function claimDueSurvey(
  db: Db,
  userId: string,
  conversationId: string,
): Promise<DueSurvey | null> {
  const [due] = await managerOf(db).query<DueRow[]>(dueSurveySql('$1', '$2'), [userId, conversationId]);
  return due === undefined
    ? null
    : { deliveryId: due.id, campaignId: due.campaign_id, surveyUrl: due.survey_url };
}

/**
 * Marks the delivery delivered by the reply that carried it (only if still pending: never
 * twice), and counts it on one of the campaign's shard rows, in one statement.
 */
export async function markSurveyDelivered(
  db: Db,
  deliveryId: string,
  delivery: { conversationId: string; messageId: string },
): Promise<void> {
  await managerOf(db).query(
    `WITH delivered AS (
       UPDATE "survey_deliveries"
          SET "delivered_at" = coalesce((SELECT "created_at" FROM "messages" WHERE "id" = $3), now()),
              "conversation_id" = $2, "message_id" = $3
        WHERE "id" = $1 AND "conversation_id" IS NULL AND "delivered_at" IS NULL
       RETURNING "campaign_id"
     )
     INSERT INTO "survey_campaign_delivered_shards" ("campaign_id", "shard", "delivered")
     SELECT "campaign_id", pg_backend_pid() % $4, 1 FROM delivered
     ON CONFLICT ("campaign_id", "shard")
     DO UPDATE SET "delivered" = "survey_campaign_delivered_shards"."delivered" + 1`,
    [deliveryId, delivery.conversationId, delivery.messageId, DELIVERED_SHARDS],
  );
}
