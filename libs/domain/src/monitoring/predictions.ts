import type { DataSource } from 'typeorm';

// What the monitor's predictions read from Postgres: the last hour in fixed-width buckets, and
// model spend. Both tables are read through their created_at indexes.

/** One bucket's figures from one table; `bucket` counts bucket widths from the window's start. */
export interface OperationBucketRow {
  bucket: number;
  /** Operations with a response time. */
  timed: number;
  /** Sum of those response times, ms. */
  response_ms: number;
  operations: number;
  errors: number;
}

export interface BucketWindow {
  start: Date;
  end: Date;
  bucketMs: number;
}

const bucketOf = `floor((extract(epoch from "created_at") * 1000 - $1) / $2)::int`;
const windowParams = (window: BucketWindow): unknown[] => [
  window.start.getTime(),
  window.bucketMs,
  window.start,
  window.end,
];

/** Outbound messages per bucket: reply response times, and failed or undelivered ones as errors. */
export function outboundMessageBuckets(db: DataSource, window: BucketWindow): Promise<OperationBucketRow[]> {
  return db.query<OperationBucketRow[]>(
    `SELECT ${bucketOf} AS bucket,
            count(*) FILTER (WHERE "response_time_ms" IS NOT NULL)::int AS timed,
            coalesce(sum("response_time_ms"), 0)::float8 AS response_ms,
            count(*)::int AS operations,
            count(*) FILTER (WHERE "status" IN ('failed', 'undelivered'))::int AS errors
       FROM "messages"
      WHERE "direction" = 'outbound' AND "created_at" >= $3 AND "created_at" <= $4
      GROUP BY 1`,
    windowParams(window),
  );
}

/** Model calls of the primary and fallback tiers per bucket, those with an error as errors. */
export function modelCallBuckets(db: DataSource, window: BucketWindow): Promise<OperationBucketRow[]> {
  return db.query<OperationBucketRow[]>(
    `SELECT ${bucketOf} AS bucket, 0 AS timed, 0::float8 AS response_ms,
            count(*)::int AS operations,
            count(*) FILTER (WHERE "error" IS NOT NULL)::int AS errors
       FROM "llm_calls"
      WHERE "tier" IN ('primary', 'fallback') AND "created_at" >= $3 AND "created_at" <= $4
      GROUP BY 1`,
    windowParams(window),
  );
}

export interface RecentSpend {
  /** Dollars since `dayStart`. */
  spentToday: number;
  /** Dollars since `hourAgo`. */
  spentLastHour: number;
  /** Calls to a model (not template answers) since `hourAgo`. */
  callsLastHour: number;
}

/** What llm_calls cost since `dayStart` and since `hourAgo`, up to `now`, in one statement. */
export async function recentModelSpend(
  db: DataSource,
  dayStart: Date,
  hourAgo: Date,
  now: Date,
): Promise<RecentSpend> {
  const [row] = await db.query<Array<{ today: string; last_hour: string; calls_last_hour: number }>>(
    `SELECT coalesce(sum("cost") FILTER (WHERE "created_at" >= $1), 0)::text AS today,
            coalesce(sum("cost") FILTER (WHERE "created_at" >= $2), 0)::text AS last_hour,
            (count(*) FILTER (WHERE "created_at" >= $2 AND "model" IS NOT NULL))::int AS calls_last_hour
       FROM "llm_calls"
      WHERE "created_at" >= least($1::timestamptz, $2::timestamptz) AND "created_at" <= $3`,
    [dayStart, hourAgo, now],
  );
  return {
    spentToday: Number(row?.today ?? 0),
    spentLastHour: Number(row?.last_hour ?? 0),
    callsLastHour: Number(row?.calls_last_hour ?? 0),
  };
}
