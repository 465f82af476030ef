import { type Db, managerOf } from '../db';
import type { SenderLimitWindow } from '../types';

// sender_limits (entities/sender-limit.entity.ts): a sender's latest stretch over a reply limit.
// ai-responder counts replies in Redis and writes here only when it refuses a text; the console
// reads who is (or was lately) limited and since when.

export interface SenderLimitRefusal {
  userId: string;
  window: SenderLimitWindow;
  /** Replies allowed in that window. */
  limit: number;
  /** When the text was refused. */
  at: Date;
  /** When the sender is answered again. */
  until: Date;
}

export interface SenderLimitStretch {
  /** This refusal started the stretch (the sender's previous one, if any, had ended): it gets the notice. */
  opened: boolean;
  limitedAt: Date;
  limitedUntil: Date;
  /** Texts refused in the stretch, this one included. */
  refused: number;
}

/**
 * Counts one refused text in its sender's stretch, or starts a new stretch when the last one is
 * over (or there was none). One statement: of texts refused at once, exactly one opens it.
 */
export async function recordSenderRefusal(db: Db, refusal: SenderLimitRefusal): Promise<SenderLimitStretch> {
  const [row] = await managerOf(db).query<Array<{ refused: number; limited_at: Date; limited_until: Date }>>(
    `INSERT INTO "sender_limits" AS s ("user_id", "limit_window", "reply_limit", "limited_at", "limited_until", "refused")
     VALUES ($1, $2, $3, $4, $5, 1)
     ON CONFLICT ("user_id") DO UPDATE SET
       "limit_window" = EXCLUDED."limit_window",
       "reply_limit" = EXCLUDED."reply_limit",
       "limited_at" = CASE WHEN s."limited_until" <= EXCLUDED."limited_at" THEN EXCLUDED."limited_at" ELSE s."limited_at" END,
       "limited_until" = CASE WHEN s."limited_until" <= EXCLUDED."limited_at" THEN EXCLUDED."limited_until"
                              ELSE greatest(s."limited_until", EXCLUDED."limited_until") END,
       "refused" = CASE WHEN s."limited_until" <= EXCLUDED."limited_at" THEN 1 ELSE s."refused" + 1 END
     RETURNING "refused", "limited_at", "limited_until"`,
    [refusal.userId, refusal.window, refusal.limit, refusal.at, refusal.until],
  );
  if (row === undefined) throw new Error('sender_limits upsert returned no row');
  return {
    opened: row.refused === 1,
    limitedAt: row.limited_at,
    limitedUntil: row.limited_until,
    refused: row.refused,
  };
}

export interface SenderLimitRow {
  userId: string;
  phoneNumber: string;
  window: SenderLimitWindow;
  limit: number;
  limitedAt: Date;
  limitedUntil: Date;
  refused: number;
}

/**
 * Senders limited now or whose stretch ended after `endedAfter`: the ones still limited first
 * (soonest answered again first), then the others, latest ended first; at most `max`.
 */
export async function senderLimitsEndingAfter(
  db: Db,
  now: Date,
  endedAfter: Date,
  max: number,
): Promise<SenderLimitRow[]> {
  const rows = await managerOf(db).query<
    Array<{
      user_id: string;
      phone_number: string;
      limit_window: SenderLimitWindow;
      reply_limit: number;
      limited_at: Date;
      limited_until: Date;
      refused: number;
    }>
  >(
    `SELECT s."user_id", u."phone_number", s."limit_window", s."reply_limit", s."limited_at",
            s."limited_until", s."refused"
       FROM "sender_limits" s JOIN "users" u ON u."id" = s."user_id"
      WHERE s."limited_until" > $2
      ORDER BY s."limited_until" <= $1, CASE WHEN s."limited_until" > $1 THEN s."limited_until" END,
               s."limited_until" DESC
      LIMIT $3`,
    [now, endedAfter, max],
  );
  return rows.map((r) => ({
    userId: r.user_id,
    phoneNumber: r.phone_number,
    window: r.limit_window,
    limit: r.reply_limit,
    limitedAt: r.limited_at,
    limitedUntil: r.limited_until,
    refused: r.refused,
  }));
}
