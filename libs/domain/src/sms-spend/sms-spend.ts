import { type Db, managerOf } from '../db';
import type { MessageEncoding, MessageStatus } from '../types';

// What sending costs. sms-gateway records each outbound message the moment the provider accepts
// it: its segments and price on the message, added to its user's total and to the day's ledger
// (sms_spend_buckets, 15-minute buckets, migration SenderLimitsAndSmsCost), all in one statement
// and only once (a message already accepted is not recorded again).

/** The ledger's bucket width; a day in any time zone starts on a bucket boundary. */
const BUCKET = `date_bin('15 minutes', $6::timestamptz, TIMESTAMPTZ '2000-01-01 00:00:00+00')`;

export interface SmsSent {
  messageId: string;
  providerSid: string;
  status: MessageStatus;
  segments: number;
  encoding: MessageEncoding;
  sentAt: Date;
  /** Dollars at the configured list price. */
  cost: number;
}

export interface SmsSentRecord {
  /** False when the message was no longer unsent (accepted before, or failed): nothing written. */
  recorded: boolean;
  /** With `since`: the SMS spend since then, this message included. */
  spent: number | null;
}

const spentSince = (param: string): string =>
  `SELECT coalesce(sum("cost"), 0) AS spent FROM "sms_spend_buckets" WHERE "bucket" >= ${param}`;

/**
 * Records that the provider accepted an outbound message still unsent (no provider sid, status
 * queued, pending or sending): its sid, status, segments, encoding, send time and SMS cost; the
 * cost is added to its user's total and to the ledger in the same statement. With `since`, also
 * answers the SMS spend since then (the statement does not see its own ledger write, so this
 * message's cost is added).
 */
export async function recordSmsSent(db: Db, sent: SmsSent, since?: Date): Promise<SmsSentRecord> {
  const cost = Math.round(Math.max(0, sent.cost) * 1e6) / 1e6;
  const params: unknown[] = [
    sent.messageId,
    sent.providerSid,
    sent.status,
    sent.segments,
    sent.encoding,
    sent.sentAt,
    cost.toFixed(6),
  ];
  if (since !== undefined) params.push(since);
  const spent = since === undefined ? 'NULL::numeric' : `(${spentSince('$8')})`;
  const [row] = await managerOf(db).query<Array<{ recorded: boolean; spent: string | null }>>(
    `WITH sent AS (
       UPDATE "messages"
          SET "provider_sid" = $2, "status" = $3, "segments" = $4, "encoding" = $5, "sent_at" = $6,
              "sms_cost" = $7, "updated_at" = now()
        WHERE "id" = $1 AND "provider_sid" IS NULL AND "status" IN ('queued', 'pending', 'sending')
        RETURNING "user_id", "sms_cost"
     ),
     user_total AS (
       UPDATE "users" u SET "total_sms_cost" = u."total_sms_cost" + sent."sms_cost"
         FROM sent WHERE u."id" = sent."user_id"
     ),
     ledger AS (
       INSERT INTO "sms_spend_buckets" ("bucket", "shard", "cost", "segments", "messages")
       SELECT ${BUCKET}, pg_backend_pid() % 8, sent."sms_cost", $4, 1 FROM sent
       ON CONFLICT ("bucket", "shard") DO UPDATE
          SET "cost" = "sms_spend_buckets"."cost" + EXCLUDED."cost",
              "segments" = "sms_spend_buckets"."segments" + EXCLUDED."segments",
              "messages" = "sms_spend_buckets"."messages" + EXCLUDED."messages"
     )
     SELECT EXISTS (SELECT 1 FROM sent) AS recorded, ${spent} AS spent`,
    params,
  );
  const recorded = row?.recorded === true;
  if (since === undefined) return { recorded, spent: null };
  return { recorded, spent: Number(row?.spent ?? 0) + (recorded ? cost : 0) };
}

/** Dollars of SMS sent since `since` (a bucket boundary: a midnight in any time zone). */
export async function smsSpentSince(db: Db, since: Date): Promise<number> {
  const [row] = await managerOf(db).query<Array<{ spent: string }>>(spentSince('$1'), [since]);
  return Number(row?.spent ?? 0);
}
