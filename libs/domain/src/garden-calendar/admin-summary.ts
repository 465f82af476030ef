import { type Db, managerOf } from '../db';

// The console's garden calendar figures: users by tips status, texts sent lately and the opt-out
// rate after tips (the calendar's quality signal: tips that annoy show up as TIPS OFF or STOP).

export interface GardenCalendarCounts {
  subscribers: number;
  offered: number;
  declined: number;
  unsubscribed: number;
  /** Tips and alerts sent since `now` minus 30 days. */
  sentLast30Days: number;
  /** Users sent at least one tip. */
  tippedUsers: number;
  /** Of those, users who opted out of tips (or everything) within `optOutWindowDays` after a tip. */
  optedOutAfterTips: number;
}

export async function gardenCalendarCounts(
  db: Db,
  now: Date,
  optOutWindowDays: number,
): Promise<GardenCalendarCounts> {
  const [row] = await managerOf(db).query<
    Array<{
      subscribers: number;
      offered: number;
      declined: number;
      unsubscribed: number;
      sent_last_30_days: number;
      tipped_users: number;
      opted_out_after_tips: number;
    }>
  >(
    `WITH by_status AS (
       SELECT count(*) FILTER (WHERE "tips_status" = 'subscribed')::int AS subscribers,
              count(*) FILTER (WHERE "tips_status" = 'offered')::int AS offered,
              count(*) FILTER (WHERE "tips_status" = 'declined')::int AS declined,
              count(*) FILTER (WHERE "tips_status" = 'unsubscribed')::int AS unsubscribed
         FROM "users" WHERE "tips_status" <> 'none'
     ),
     tipped AS (
       SELECT DISTINCT "user_id" FROM "calendar_sends" WHERE "kind" = 'tip' AND "status" = 'sent'
     )
     SELECT b.*,
            (SELECT count(*)::int FROM "calendar_sends"
              WHERE "status" = 'sent' AND "sent_at" > $1::timestamptz - interval '30 days'
                AND "sent_at" <= $1) AS sent_last_30_days,
            (SELECT count(*)::int FROM tipped) AS tipped_users,
            (SELECT count(*)::int FROM tipped t
              WHERE EXISTS (
                SELECT 1 FROM "consent_events" e
                  JOIN "calendar_sends" s ON s."user_id" = e."user_id" AND s."kind" = 'tip' AND s."status" = 'sent'
                 WHERE e."user_id" = t."user_id" AND e."type" IN ('tips_opt_out', 'opt_out')
                   AND e."created_at" >= s."sent_at"
                   AND e."created_at" < s."sent_at" + make_interval(days => $2)
              )) AS opted_out_after_tips
       FROM by_status b`,
    [now, optOutWindowDays],
  );
  if (row === undefined) throw new Error('garden calendar counts returned no row');
  return {
    subscribers: row.subscribers,
    offered: row.offered,
    declined: row.declined,
    unsubscribed: row.unsubscribed,
    sentLast30Days: row.sent_last_30_days,
    tippedUsers: row.tipped_users,
    optedOutAfterTips: row.opted_out_after_tips,
  };
}
