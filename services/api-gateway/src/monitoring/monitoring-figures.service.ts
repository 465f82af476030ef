import { Injectable } from '@nestjs/common';
import {
  type AdminMetrics,
  type ApiUsage,
  type ConversationQuality,
  DETAILED_RESPONSE_CHARS,
  FALLBACK_CHAIN,
  FALLBACK_TIERS,
  type FallbackEvent,
  type FallbackReport,
  type FallbackTier,
  type MonitoringMessage,
  QUALITY_WINDOW_DAYS,
  RECENT_FALLBACKS_SHOWN,
  SLOW_RESPONSE_MS,
  SUBSTANTIVE_RESPONSE_CHARS,
  type WeeklyQualityMetrics,
  failureThresholds,
} from '@sprout/contracts';
import { lookupZip, regionForState } from '@sprout/gardening';
import { OFFLINE_MODEL_NAME } from '@sprout/llm';
import { queryPrepared } from '@sprout/platform';
import { DataSource } from 'typeorm';
import { profileText } from '../users/users.service';
import { DashboardService, startOfUtcDay } from '../dashboard/dashboard.service';
import { healthScoreOf, usageAlerts } from './usage-rules';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Latencies listed in the API usage answer (the newest, shown oldest first). */
const RESPONSE_TIMES_SHOWN = 20;
/** A failed call this long before a fallback answer, in the same conversation, is why it fell back. */
const FALLBACK_REASON_WINDOW = '2 minutes';

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

const isTier = (value: string): value is FallbackTier =>
  (FALLBACK_TIERS as readonly string[]).includes(value);

/** The broad region of a known US ZIP (its state's), as the reply pipeline records it; else null. */
const regionOfZip = (zip: string | null): string | null => {
  const place = zip === null ? null : lookupZip(zip);
  return place === null ? null : regionForState(place.state);
};

/** Why the chain passed the live model when no failed call says so. */
const reasonWithoutFailure = (tier: FallbackTier): string =>
  tier === 'template'
    ? 'No model was called: the daily spending limit was reached'
    : tier === 'minimal'
      ? 'The offline advisor had no answer'
      : 'The live model did not answer';

/**
 * The monitoring dashboard's figures and the Fallback System page, read from Postgres: messages
 * and llm_calls over indexed created_at ranges (today, the last 24 hours, the last 7 days).
 */
@Injectable()
export class MonitoringFiguresService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly dashboard: DashboardService,
  ) {}

  /** The four cards: real users' figures, as the Overview computes them. */
  async adminMetrics(now: Date = new Date()): Promise<AdminMetrics> {
    const { activeUsers, messagesToday, avgResponseTime, todaysCost } = await this.dashboard.metrics(
      false,
      now,
    );
    return { activeUsers, messagesToday, avgResponseTime, todaysCost };
  }

  /**
   * The newest messages with their user's phone, ZIP and region: the region the Users screen
   * shows (learned, or recorded from their ZIP), else their ZIP's (index on is_test_user, created_at).
   */
  async recentMessages(limit: number, testData: boolean): Promise<MonitoringMessage[]> {
    const rows = await queryPrepared<{
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
    }>(
      this.dataSource,
      `SELECT m.id, m.content, m.direction, m.status, m.created_at, m.is_test_user,
              u.id AS user_id, u.phone_number, u.zip_code,
              coalesce(${profileText('region')}, u.region) AS region
         FROM messages m JOIN users u ON u.id = m.user_id
        WHERE m.is_test_user = $1
        ORDER BY m.created_at DESC
        LIMIT $2`,
      [testData, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      content: row.content,
      direction: row.direction,
      status: row.status,
      createdAt: new Date(row.created_at).toISOString(),
      isTestUser: row.is_test_user,
      user: {
        id: row.user_id,
        phoneNumber: row.phone_number,
        zipCode: row.zip_code,
        region: row.region ?? regionOfZip(row.zip_code),
      },
    }));
  }

  /**
   * Today's calls to the AI provider (from midnight UTC): llm_calls rows of a model other than the
   * offline advisor, failed ones included, of every purpose and of test users too (the provider
   * bills them alike).
   */
  async apiUsage(now: Date = new Date()): Promise<ApiUsage> {
    const since = startOfUtcDay(now);
    const filter = `created_at >= $1 AND created_at <= $2 AND model IS NOT NULL AND model <> $3`;
    const params = [since, now, OFFLINE_MODEL_NAME];
    const [totals, latencies] = await Promise.all([
      queryPrepared<{
        calls: number;
        cost: string;
        tokens: string;
        errors: number;
        avg_latency: number | null;
      }>(
        this.dataSource,
        `SELECT count(*)::int AS calls, coalesce(sum(cost), 0)::text AS cost,
                coalesce(sum(total_tokens), 0)::text AS tokens,
                (count(*) FILTER (WHERE error IS NOT NULL))::int AS errors,
                avg(latency_ms)::float8 AS avg_latency
           FROM llm_calls WHERE ${filter}`,
        params,
      ),
      queryPrepared<{ latency_ms: number }>(
        this.dataSource,
        `SELECT latency_ms FROM llm_calls WHERE ${filter} AND latency_ms IS NOT NULL
          ORDER BY created_at DESC LIMIT ${RESPONSE_TIMES_SHOWN}`,
        params,
      ),
    ]);
    const row = totals[0];
    const usage = {
      calls: row?.calls ?? 0,
      cost: round(Number(row?.cost ?? 0), 6),
      tokens: Number(row?.tokens ?? 0),
      errors: row?.errors ?? 0,
      averageResponseTime: Math.round(row?.avg_latency ?? 0),
    };
    return {
      ...usage,
      responseTimes: latencies.map((l) => l.latency_ms).reverse(),
      date: since.toISOString().slice(0, 10),
      alerts: usageAlerts(usage),
    };
  }

  /**
   * Real users' conversations over the last 7 days (today and the 6 days before, UTC). Users: who
   * texted in the week; returning: of those, who were with us before it; active: who texted on 2
   * or more days of it. Responses are replies to questions (outbound, kind reply): substantive
   * from 80 characters, detailed from 240, slow over 10 s.
   */
  async conversationQuality(now: Date = new Date()): Promise<ConversationQuality> {
    const since = new Date(startOfUtcDay(now).getTime() - (QUALITY_WINDOW_DAYS - 1) * DAY_MS);
    const rows = await queryPrepared<Record<keyof WeeklyQualityMetrics, number | string | null>>(
      this.dataSource,
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
      [since, now, SUBSTANTIVE_RESPONSE_CHARS, DETAILED_RESPONSE_CHARS, SLOW_RESPONSE_MS],
    );
    const row = (rows[0] ?? {}) as Record<string, number | string | null>;
    const n = (key: string): number => Number(row[key] ?? 0);
    const usersWithMessages = n('users_with_messages');
    const weeklyMetrics: WeeklyQualityMetrics = {
      total_users: n('total_users'),
      returning_users: n('returning_users'),
      active_users: n('active_users'),
      total_messages: n('total_messages'),
      substantive_responses: n('substantive_responses'),
      detailed_responses: n('detailed_responses'),
      avg_messages_per_user: usersWithMessages === 0 ? 0 : round(n('total_messages') / usersWithMessages, 1),
      avg_response_time: Math.round(n('avg_response_time')),
      avg_response_length: Math.round(n('avg_response_length')),
      active_days: n('active_days'),
      slow_responses: n('slow_responses'),
      total_responses: n('total_responses'),
    };
    return { healthScore: healthScoreOf(weeklyMetrics), weeklyMetrics };
  }

  /**
   * The fallback chain as it ran: the replies each tier answered in the last 24 hours and 7 days
   * (llm_calls of purpose reply without an error, test users included), the tier of the newest
   * reply, and the newest replies answered below the live model with the failed call that made
   * the chain move on (same conversation, up to 2 minutes before).
   */
  async fallbackReport(now: Date = new Date()): Promise<FallbackReport> {
    const dayAgo = new Date(now.getTime() - DAY_MS);
    const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
    const answered = `purpose = 'reply' AND error IS NULL`;
    const [counts, newest, fallbacks] = await Promise.all([
      queryPrepared<{ tier: string; day: number; week: number }>(
        this.dataSource,
        `SELECT tier, (count(*) FILTER (WHERE created_at >= $2))::int AS day, count(*)::int AS week
           FROM llm_calls WHERE ${answered} AND created_at >= $1 AND created_at <= $3
          GROUP BY tier`,
        [weekAgo, dayAgo, now],
      ),
      queryPrepared<{ tier: string; created_at: Date }>(
        this.dataSource,
        `SELECT tier, created_at FROM llm_calls WHERE ${answered} AND created_at <= $1
          ORDER BY created_at DESC LIMIT 1`,
        [now],
      ),
      queryPrepared<{
        tier: string;
        created_at: Date;
        conversation_id: string | null;
        reason: string | null;
        failed_model: string | null;
      }>(
        this.dataSource,
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
          ORDER BY c.created_at DESC LIMIT ${RECENT_FALLBACKS_SHOWN}`,
        [weekAgo, now],
      ),
    ]);
    const byTier = new Map(counts.map((c) => [c.tier, c]));
    const chain = FALLBACK_CHAIN.map((info) => ({
      ...info,
      last24Hours: byTier.get(info.tier)?.day ?? 0,
      last7Days: byTier.get(info.tier)?.week ?? 0,
    }));
    const total24 = chain.reduce((sum, tier) => sum + tier.last24Hours, 0);
    const below24 = chain.filter((t) => t.tier !== 'primary').reduce((sum, t) => sum + t.last24Hours, 0);
    const latest = newest[0];
    const recentFallbacks: FallbackEvent[] = fallbacks.flatMap((row) => {
      if (!isTier(row.tier)) return [];
      return [
        {
          at: new Date(row.created_at).toISOString(),
          tier: row.tier,
          reason: row.reason ?? reasonWithoutFailure(row.tier),
          failedModel: row.failed_model,
          conversationId: row.conversation_id,
        },
      ];
    });
    return {
      chain,
      current:
        latest !== undefined && isTier(latest.tier)
          ? { tier: latest.tier, at: new Date(latest.created_at).toISOString() }
          : { tier: null, at: null },
      fallbackRate24Hours: total24 === 0 ? 0 : round((below24 / total24) * 100, 1),
      recentFallbacks,
      thresholds: failureThresholds(),
      timestamp: now.toISOString(),
    };
  }
}
