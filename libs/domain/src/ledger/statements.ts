import type { DataSource, EntityManager } from 'typeorm';
import { type Db, managerOf } from '../db';
import { DEFAULT_SPENDING_LIMIT, SPENDING_LIMIT_SETTING, getSetting } from '../settings/settings';
import type { LlmPurpose, LlmTier } from '../types';

// The statements of the ledger of paid calls (llm_calls and spend_reservations): nothing else
// writes those tables. Spend is what llm_calls cost since midnight in a configured time zone (read
// from llm_spend_buckets, which a trigger keeps); model calls in flight hold a reservation of their
// worst-case cost. A call is admitted only while spent + reserved is under the limit, so however
// many calls run at once on however many replicas, the day's spend overshoots the limit by at most
// the worst case of the last call admitted.

/** llm_spend_buckets' width (sql/llm_spend_buckets.sql). */
const BUCKET_MS = 15 * 60 * 1000;

/** The limit a stored setting value means (the default for an unusable one; `spend_limit_of()` in SQL). */
function spendingLimitOf(value: unknown): number {
  const stored = Number(value);
  return Number.isFinite(stored) && stored >= 0 ? stored : DEFAULT_SPENDING_LIMIT;
}

/** The daily limit in dollars: the stored setting, else the default (also for an unusable value). */
export async function readSpendingLimit(manager: EntityManager): Promise<number> {
  return spendingLimitOf(await getSetting<unknown>(manager, SPENDING_LIMIT_SETTING, DEFAULT_SPENDING_LIMIT));
}

/**
 * One statement (one snapshot) reading what llm_calls cost since `$1` and what calls in flight
 * hold. Whole buckets from the first bucket boundary at or after `$1`; the rows of a partial
 * first bucket (a day start off the quarter hour) from llm_calls itself.
 */
const SPEND_SQL = `
  SELECT
    (SELECT coalesce(sum("cost"), 0) FROM "llm_spend_buckets" WHERE "bucket" >= $2)
      + (SELECT coalesce(sum("cost"), 0) FROM "llm_calls" WHERE "created_at" >= $1 AND "created_at" < $2)
      AS spent,
    (SELECT coalesce(sum("amount"), 0) FROM "spend_reservations" WHERE "expires_at" > now()) AS held`;

const firstBucketAt = (since: Date): Date => new Date(Math.ceil(since.getTime() / BUCKET_MS) * BUCKET_MS);

async function readSpend(manager: EntityManager, since: Date): Promise<{ spent: number; held: number }> {
  const [row] = await manager.query<Array<{ spent: string; held: string }>>(SPEND_SQL, [
    since,
    firstBucketAt(since),
  ]);
  return { spent: Number(row?.spent ?? 0), held: Number(row?.held ?? 0) };
}

/** Dollars spent on model calls since `since` (every llm_calls row: replies, summaries, images). */
export async function spentSince(manager: EntityManager, since: Date): Promise<number> {
  return (await readSpend(manager, since)).spent;
}

export interface SpendSnapshot {
  /** Dollars settled since the day began. */
  spent: number;
  /** Dollars reserved by model calls in flight. */
  held: number;
  limit: number;
}

/** Spend, reservations and limit, without reserving anything. */
export async function readSpendSnapshot(manager: EntityManager, since: Date): Promise<SpendSnapshot> {
  const { spent, held } = await readSpend(manager, since);
  return { spent, held, limit: await readSpendingLimit(manager) };
}

export interface SpendReservation {
  id: string;
  amount: number;
}

export interface ReserveOutcome extends SpendSnapshot {
  /** Null when the limit is reached for today (reservations of calls in flight counted). */
  reservation: SpendReservation | null;
}

/**
 * Reserves `amount` dollars (the call's worst case) when the day's budget is not reached: spent
 * plus reserved is under the limit. One call of `reserve_spend()` (sql/reserve_spend.sql):
 * admissions are serialised by an advisory lock held only while that statement runs; the
 * reservation lapses after `ttlMs` if never settled. Relies on READ COMMITTED (Postgres's default):
 * the function's reads after the lock then see every admission committed before it; under
 * REPEATABLE READ its snapshot would predate the lock and two admissions could pass the limit.
 */
export async function reserveSpend(
  dataSource: DataSource,
  request: { amount: number; since: Date; ttlMs: number },
): Promise<ReserveOutcome> {
  // Rounded up to the micro-dollar the columns keep, so the reservation covers the call.
  const amount = Math.ceil(Math.max(0, request.amount) * 1e6 - 1e-6) / 1e6;
  const [row] = await dataSource.query<
    Array<{ o_spent: string; o_held: string; o_limit: string; o_reservation_id: string | null }>
  >(`SELECT o_spent, o_held, o_limit, o_reservation_id FROM reserve_spend($1, $2, $3, $4, $5)`, [
    amount.toFixed(6),
    request.since,
    firstBucketAt(request.since),
    request.ttlMs,
    DEFAULT_SPENDING_LIMIT,
  ]);
  if (row === undefined) throw new Error('reserve_spend() returned no row');
  const snapshot = { spent: Number(row.o_spent), held: Number(row.o_held), limit: Number(row.o_limit) };
  if (row.o_reservation_id === null) return { ...snapshot, reservation: null };
  return { ...snapshot, held: snapshot.held + amount, reservation: { id: row.o_reservation_id, amount } };
}

/** One llm_calls row: a model call (its real cost, or its error), or an answer no model wrote. */
export interface LedgerCall {
  purpose: LlmPurpose;
  tier: LlmTier;
  /** Null when no model was called (template and minimal replies, a photo described offline over the limit). */
  model: string | null;
  promptTokens: number;
  completionTokens: number;
  /** Dollars. */
  cost: number;
  latencyMs: number | null;
  error: string | null;
  messageId: string | null;
  userId: string | null;
  conversationId: string | null;
  isTestUser: boolean;
}

/** A row that costs nothing, so it needs no reservation. */
export type UnpaidCall = Omit<LedgerCall, 'cost'>;

const CALL_COLUMNS = `"message_id", "user_id", "conversation_id", "purpose", "model", "prompt_tokens",
  "completion_tokens", "total_tokens", "cost", "latency_ms", "tier", "error", "is_test_user"`;

/** The values of CALL_COLUMNS, as parameters `$first` onwards. */
const callValues = (call: LedgerCall, first: number): { sql: string; params: unknown[] } => {
  const params = [
    call.messageId,
    call.userId,
    call.conversationId,
    call.purpose,
    call.model,
    call.promptTokens,
    call.completionTokens,
    call.promptTokens + call.completionTokens,
    call.cost,
    call.latencyMs,
    call.tier,
    call.error,
    call.isTestUser,
  ];
  return { sql: params.map((_, i) => `$${first + i}`).join(', '), params };
};

/**
 * Settles a call in one statement (one implicit transaction): writes its llm_calls row and drops
 * its reservation, so the spend never counts the call twice or not at all. With `since`, also
 * answers the day's spend including this call and the limit (for the gauges and thresholds):
 * the statement's snapshot does not see its own row, so the call's cost is added.
 */
export async function settleSpend(
  manager: EntityManager,
  reservationId: string,
  call: LedgerCall,
  since?: Date,
): Promise<{ id: string; spent: number | null; limit: number | null }> {
  const values = callValues(call, 2);
  const params: unknown[] = [reservationId, ...values.params];
  const snapshot =
    since === undefined
      ? 'NULL::numeric AS spent, NULL::jsonb AS setting'
      : `(SELECT coalesce(sum("cost"), 0) FROM "llm_spend_buckets" WHERE "bucket" >= $16)
           + (SELECT coalesce(sum("cost"), 0) FROM "llm_calls" WHERE "created_at" >= $15 AND "created_at" < $16)
           AS spent,
         (SELECT jsonb_build_object('v', "value") FROM "settings" WHERE "key" = '${SPENDING_LIMIT_SETTING}') AS setting`;
  if (since !== undefined) params.push(since, firstBucketAt(since));
  const [row] = await manager.query<
    Array<{ id: string; spent: string | null; setting: { v: unknown } | null }>
  >(
    `WITH released AS (DELETE FROM "spend_reservations" WHERE "id" = $1)
     INSERT INTO "llm_calls" (${CALL_COLUMNS}) VALUES (${values.sql})
     RETURNING "id", ${snapshot}`,
    params,
  );
  if (row === undefined) throw new Error('llm_calls insert returned no id');
  if (since === undefined) return { id: row.id, spent: null, limit: null };
  return {
    id: row.id,
    spent: Number(row.spent ?? 0) + call.cost,
    limit: spendingLimitOf(row.setting === null ? DEFAULT_SPENDING_LIMIT : row.setting.v),
  };
}

/** Writes a row that costs nothing, in one statement (in the caller's transaction when `db` is one). */
export async function recordUnpaidCall(db: Db, call: UnpaidCall): Promise<string> {
  const values = callValues({ ...call, cost: 0 }, 1);
  const [row] = await managerOf(db).query<Array<{ id: string }>>(
    `INSERT INTO "llm_calls" (${CALL_COLUMNS}) VALUES (${values.sql}) RETURNING "id"`,
    values.params,
  );
  if (row === undefined) throw new Error('llm_calls insert returned no id');
  return row.id;
}
