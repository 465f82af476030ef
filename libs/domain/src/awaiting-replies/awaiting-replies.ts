import { type Db, managerOf } from '../db';
import type { AwaitingReplyQueue } from '../types';

// The awaiting_replies outbox (entities/awaiting-reply.entity.ts). record_inbound() writes a row
// when the webhook or the simulator stores a text this deployment owes an answer, or a keyword
// whose confirmation is still to be sent; recordOutbound deletes a reply's row in its statement, a
// trigger deletes a confirmation's once its send is over, and settleAwaitingReply the rest.

export interface AwaitingReplyRow {
  messageId: string;
  queue: AwaitingReplyQueue;
  createdAt: Date;
  /** Times the sweep enqueued or retried its job so far. */
  attempts: number;
}

interface Row {
  message_id: string;
  queue: AwaitingReplyQueue;
  created_at: Date;
  attempts: number;
}

const rowOf = (row: Row): AwaitingReplyRow => ({
  messageId: row.message_id,
  queue: row.queue,
  createdAt: row.created_at,
  attempts: row.attempts,
});

/**
 * The text needs nothing more from this deployment (answered another way, or deliberately not:
 * opted out, a keyword, a repeat). True when a row was deleted.
 */
export async function settleAwaitingReply(db: Db, messageId: string): Promise<boolean> {
  const [, deleted] = await managerOf(db).query<[unknown, number]>(
    `DELETE FROM "awaiting_replies" WHERE "message_id" = $1`,
    [messageId],
  );
  return deleted > 0;
}

/**
 * Rows stored in [from, until) and not redriven since `until` (a job added by a sweep gets as long
 * as a webhook's job before it counts as lost), oldest first, at most `limit`.
 */
export async function awaitingRepliesBetween(
  db: Db,
  from: Date,
  until: Date,
  limit: number,
): Promise<AwaitingReplyRow[]> {
  const rows = await managerOf(db).query<Row[]>(
    `SELECT "message_id", "queue", "created_at", "attempts" FROM "awaiting_replies"
      WHERE "created_at" >= $1 AND "created_at" < $2
        AND ("last_attempt_at" IS NULL OR "last_attempt_at" < $2)
      ORDER BY "created_at", "message_id" LIMIT $3`,
    [from, until, limit],
  );
  return rows.map(rowOf);
}

/**
 * Counts one more attempt of the row's job, only if its count is still `seen` and no attempt was
 * made since `quietSince` (two sweeps at once: one of them takes it, and a sweep that read the row
 * just after another claimed it leaves it alone). The new count, or null when another sweep took
 * it or it was settled.
 */
export async function claimAwaitingReplyAttempt(
  db: Db,
  messageId: string,
  seen: number,
  at: Date,
  quietSince: Date,
): Promise<number | null> {
  // TypeORM answers an UPDATE or DELETE with [rows, affected].
  const [rows] = await managerOf(db).query<[{ attempts: number }[], number]>(
    `UPDATE "awaiting_replies" SET "attempts" = "attempts" + 1, "last_attempt_at" = $3
      WHERE "message_id" = $1 AND "attempts" = $2
        AND ("last_attempt_at" IS NULL OR "last_attempt_at" < $4)
      RETURNING "attempts"`,
    [messageId, seen, at, quietSince],
  );
  return rows[0]?.attempts ?? null;
}

/** Deletes (and returns) at most `limit` rows stored before `before`, oldest first: given up on. */
export async function expireAwaitingReplies(
  db: Db,
  before: Date,
  limit: number,
): Promise<AwaitingReplyRow[]> {
  const [rows] = await managerOf(db).query<[Row[], number]>(
    `DELETE FROM "awaiting_replies" a
      WHERE a."message_id" IN (
        SELECT "message_id" FROM "awaiting_replies" WHERE "created_at" < $1
         ORDER BY "created_at" LIMIT $2 FOR UPDATE SKIP LOCKED)
      RETURNING a."message_id", a."queue", a."created_at", a."attempts"`,
    [before, limit],
  );
  return rows.map(rowOf);
}
