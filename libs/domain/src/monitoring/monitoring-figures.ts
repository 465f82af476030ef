import type { DataSource } from 'typeorm';
import { queryPrepared } from '../prepared-query';
import { profileText } from '../users/user-sorts';

// The monitoring dashboard's figures and the Fallback System page: messages and llm_calls over
// indexed created_at ranges. Every statement is prepared.

/** A failed call this long before a fallback answer, in the same conversation, is why it fell back. */
const FALLBACK_REASON_WINDOW = '2 minutes';

export interface MonitoringMessageRow {
  id: string;
  content: string;
  direction: 'inbound' | 'outbound';
  status: string | null;
  created_at: Date;
  is_test_user: boolean;
  user_id: string;
  phone_number: string;
  zip_code: string | null;
  region: string | null;
}

/**
 * The newest messages of the kind with their user's phone, ZIP and the region the Users screen
 * shows (learned, or recorded from their ZIP) (index on is_test_user, created_at).
 */
export async function recentMonitoringMessages(
  dataSource: DataSource,
  limit: number,
  testData: boolean,
): Promise<MonitoringMessageRow[]> {
  return queryPrepared<MonitoringMessageRow>(
    dataSource,
    `SELECT m.id, m.content, m.direction, m.status, m.created_at, m.is_test_user,
              u.id AS user_id, u.phone_number, u.zip_code,
              coalesce(${profileText('region')}, u.region) AS region
         FROM messages m JOIN users u ON u.id = m.user_id
        WHERE m.is_test_user = $1
        ORDER BY m.created_at DESC
        LIMIT $2`,
    [testData, limit],
  );
}

export interface ApiUsageTotalsRow {
  calls: number;
  cost: string;
  tokens: string;
  errors: number;
  avg_latency: number | null;
}

export interface ApiUsageRows {
  totals: ApiUsageTotalsRow | undefined;
  /** The newest latencies, newest first. */
  latencies: number[];
}

/**
 * Calls to the AI provider in [since, until]: llm_calls rows of a model other than `offlineModel`,
 * failed ones included, of every purpose and of test users too; and the newest `latenciesShown`
 * latencies.
 */
export async function apiUsage(
  dataSource: DataSource,
  since: Date,
  until: Date,
  offlineModel: string,
  latenciesShown: number,
): Promise<ApiUsageRows> {
  const filter = `created_at >= $1 AND created_at <= $2 AND model IS NOT NULL AND model <> $3`;
  const params = [since, until, offlineModel];
  const [totals, latencies] = await Promise.all([
    queryPrepared<ApiUsageTotalsRow>(
      dataSource,
      `SELECT count(*)::int AS calls, coalesce(sum(cost), 0)::text AS cost,
                coalesce(sum(total_tokens), 0)::text AS tokens,
                (count(*) FILTER (WHERE error IS NOT NULL))::int AS errors,
                avg(latency_ms)::float8 AS avg_latency
           FROM llm_calls WHERE ${filter}`,
      params,
    ),
    queryPrepared<{ latency_ms: number }>(
      dataSource,
      `SELECT latency_ms FROM llm_calls WHERE ${filter} AND latency_ms IS NOT NULL
          ORDER BY created_at DESC LIMIT ${latenciesShown}`,
      params,
    ),
  ]);
  return { totals: totals[0], latencies: latencies.map((l) => l.latency_ms) };
}

export interface QualityThresholds {
  substantiveChars: number;
  detailedChars: number;
  slowMs: number;
}

/**
 * Real users' conversations in [since, until]. Users: who texted; returning: of those, who were
 * with us before `since`; active: who texted on 2 or more UTC days. Responses are replies to
 * questions (outbound, kind reply), substantive and detailed from the thresholds' lengths, slow
 * over their time.
 */
export async function conversationQualityFigures(
  dataSource: DataSource,
  since: Date,
  until: Date,
  thresholds: QualityThresholds,
): Promise<Record<string, number | string | null> | undefined> {
  const rows = await queryPrepared<Record<string, number | string | null>>(
    dataSource,
    `WITH week AS (
         SELECT user_id, direction, kind, response_time_ms, created_at,
                CASE WHEN direction = 'outbound' AND kind = 'reply' THEN char_length(content) END AS reply_chars
           FROM messages
          WHERE is_test_user = false AND created_at >= $1 AND created_at <= $2
       ),
       senders AS (
         SELECT user_id, count(DISTINCT (created_at AT TIME ZONE 'UTC')::date) AS days
           FROM week WHERE direction = 'inbound' GROUP BY user_id
       )
       SELECT
         (SELECT count(*) FROM senders)::int AS total_users,
         (SELECT count(*) FROM senders s JOIN users u ON u.id = s.user_id WHERE u.created_at < $1)::int
           AS returning_users,
         (SELECT count(*) FROM senders WHERE days >= 2)::int AS active_users,
         (SELECT count(*) FROM week)::int AS total_messages,
         (SELECT count(DISTINCT user_id) FROM week)::int AS users_with_messages,
         (SELECT count(*) FROM week WHERE reply_chars >= $3)::int AS substantive_responses,
         (SELECT count(*) FROM week WHERE reply_chars >= $4)::int AS detailed_responses,
         (SELECT avg(response_time_ms) FROM week WHERE reply_chars IS NOT NULL)::float8 AS avg_response_time,
         (SELECT avg(reply_chars) FROM week)::float8 AS avg_response_length,
         (SELECT count(DISTINCT (created_at AT TIME ZONE 'UTC')::date) FROM week)::int AS active_days,
         (SELECT count(*) FROM week WHERE reply_chars IS NOT NULL AND response_time_ms > $5)::int
           AS slow_responses,
         (SELECT count(*) FROM week WHERE reply_chars IS NOT NULL)::int AS total_responses`,
    [since, until, thresholds.substantiveChars, thresholds.detailedChars, thresholds.slowMs],
  );
  return rows[0];
}

export interface FallbackRows {
  /** Answered replies per tier since `dayAgo` (day) and `weekAgo` (week). */
  counts: Array<{ tier: string; day: number; week: number }>;
  /** The newest answered reply up to `now`. */
  newest: { tier: string; created_at: Date } | undefined;
  /**
   * The newest replies answered below the live model since `weekAgo`, with the failed call that
   * made the chain move on (same conversation, up to 2 minutes before).
   */
  fallbacks: Array<{
    tier: string;
    created_at: Date;
    conversation_id: string | null;
    reason: string | null;
    failed_model: string | null;
  }>;
}

/** The fallback chain as it ran: llm_calls of purpose reply without an error, test users included. */
export async function fallbackFigures(
  dataSource: DataSource,
  window: { weekAgo: Date; dayAgo: Date; now: Date },
  recentShown: number,
): Promise<FallbackRows> {
  const { weekAgo, dayAgo, now } = window;
  const answered = `purpose = 'reply' AND error IS NULL`;
  const [counts, newest, fallbacks] = await Promise.all([
    queryPrepared<FallbackRows['counts'][number]>(
      dataSource,
      `SELECT tier, (count(*) FILTER (WHERE created_at >= $2))::int AS day, count(*)::int AS week
           FROM llm_calls WHERE ${answered} AND created_at >= $1 AND created_at <= $3
          GROUP BY tier`,
      [weekAgo, dayAgo, now],
    ),
    queryPrepared<{ tier: string; created_at: Date }>(
      dataSource,
      `SELECT tier, created_at FROM llm_calls WHERE ${answered} AND created_at <= $1
          ORDER BY created_at DESC LIMIT 1`,
      [now],
    ),
    queryPrepared<FallbackRows['fallbacks'][number]>(
      dataSource,
      `SELECT c.tier, c.created_at, c.conversation_id, f.error AS reason, f.model AS failed_model
           FROM llm_calls c
           LEFT JOIN LATERAL (
             SELECT p.error, p.model FROM llm_calls p
              WHERE p.conversation_id = c.conversation_id AND p.purpose = 'reply' AND p.error IS NOT NULL
                AND p.created_at <= c.created_at
                AND p.created_at >= c.created_at - interval '${FALLBACK_REASON_WINDOW}'
              ORDER BY p.created_at DESC LIMIT 1
           ) f ON true
          WHERE c.purpose = 'reply' AND c.error IS NULL AND c.tier <> 'primary'
            AND c.created_at >= $1 AND c.created_at <= $2
          ORDER BY c.created_at DESC LIMIT ${recentShown}`,
      [weekAgo, now],
    ),
  ]);
  return { counts, newest: newest[0], fallbacks };
}

/** The tier and time of the newest answered reply (what the monitor records in Redis), or undefined. */
export async function newestAnsweredReply(
  dataSource: DataSource,
): Promise<{ tier: string; created_at: Date } | undefined> {
  const rows = await dataSource.query<Array<{ tier: string; created_at: Date }>>(
    `SELECT "tier", "created_at" FROM "llm_calls"
            WHERE "purpose" = 'reply' AND "error" IS NULL
            ORDER BY "created_at" DESC LIMIT 1`,
  );
  return rows[0];
}
