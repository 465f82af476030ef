import type { DataSource, EntityManager } from 'typeorm';
import { DEFAULT_SPENDING_LIMIT, SPENDING_LIMIT_SETTING, getSetting } from './settings';

// The daily spending limit (ARCHITECTURE §5 step 6) as a hard cap. Spend is what llm_calls cost
// since midnight in a configured time zone (read from llm_spend_buckets, which a trigger keeps);
// model calls in flight hold a reservation of their worst-case cost (spend_reservations). A call
// is admitted only while spent + reserved is under the limit, so however many replies run at once
// on however many replicas, the day's spend overshoots the limit by at most the worst case of the
// last call admitted.

/** llm_spend_buckets' width (migration SpendLedger). */
const BUCKET_MS = 15 * 60 * 1000;
/** Serialises admissions across replicas (pg_advisory_xact_lock). */
const RESERVE_LOCK_KEY = 'sprout:spend-reservations';

/** Whether `name` is an IANA time zone this runtime knows ("UTC", "America/Los_Angeles"). */
export function isTimeZone(name: string): boolean {
  if (name.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of `at` in `timeZone`. */
function wallClock(at: Date, timeZone: string) {
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at`, in ms. */
function offsetAt(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

export interface SpendDay {
  /** YYYY-MM-DD in the time zone. */
  key: string;
  /** The instant the day began (its midnight, or the first instant after it on a DST jump). */
  start: Date;
}

/** The spending day `now` falls in, midnight to midnight in `timeZone`. */
export function spendDay(now: Date, timeZone: string): SpendDay {
  const { year, month, day } = wallClock(now, timeZone);
  const midnightAsUtc = Date.UTC(year, month - 1, day);
  // Two passes settle the offset in force at midnight (it differs from now's across a DST change).
  let start = midnightAsUtc - offsetAt(now, timeZone);
  start = midnightAsUtc - offsetAt(new Date(start), timeZone);
  const key = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return { key, start: new Date(start) };
}

/** The daily limit in dollars: the stored setting, else the default (also for an unusable value). */
export async function readSpendingLimit(manager: EntityManager): Promise<number> {
  const stored = Number(await getSetting<unknown>(manager, SPENDING_LIMIT_SETTING, DEFAULT_SPENDING_LIMIT));
  return Number.isFinite(stored) && stored >= 0 ? stored : DEFAULT_SPENDING_LIMIT;
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
 * plus reserved is under the limit. Admissions are serialised by an advisory lock held for the
 * few statements of the transaction; the reservation lapses after `ttlMs` if never settled.
 */
export async function reserveSpend(
  dataSource: DataSource,
  request: { amount: number; since: Date; ttlMs: number },
): Promise<ReserveOutcome> {
  // Rounded up to the micro-dollar the columns keep, so the reservation covers the call.
  const amount = Math.ceil(Math.max(0, request.amount) * 1e6 - 1e-6) / 1e6;
  return dataSource.transaction(async (manager) => {
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [RESERVE_LOCK_KEY]);
    await manager.query(`DELETE FROM "spend_reservations" WHERE "expires_at" <= now()`);
    const snapshot = await readSpendSnapshot(manager, request.since);
    if (snapshot.spent + snapshot.held >= snapshot.limit) return { ...snapshot, reservation: null };
    const [row] = await manager.query<Array<{ id: string }>>(
      `INSERT INTO "spend_reservations" ("amount", "expires_at")
       VALUES ($1, now() + $2 * interval '1 millisecond') RETURNING "id"`,
      [amount.toFixed(6), request.ttlMs],
    );
    if (row === undefined) throw new Error('spend_reservations insert returned no id');
    return { ...snapshot, held: snapshot.held + amount, reservation: { id: row.id, amount } };
  });
}

/** Gives a reservation back (its call failed or was settled in `manager`'s transaction). */
export async function releaseSpend(manager: EntityManager, reservationId: string): Promise<void> {
  await manager.query(`DELETE FROM "spend_reservations" WHERE "id" = $1`, [reservationId]);
}
