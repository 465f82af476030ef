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
import {
  apiUsage,
  conversationQualityFigures,
  fallbackFigures,
  recentMonitoringMessages,
} from '@sprout/domain';
import { DataSource } from 'typeorm';
import { DashboardService, startOfUtcDay } from '../dashboard/dashboard.service';
import { healthScoreOf, usageAlerts } from './usage-rules';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Latencies listed in the API usage answer (the newest, shown oldest first). */
const RESPONSE_TIMES_SHOWN = 20;

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
    const rows = await recentMonitoringMessages(this.dataSource, limit, testData);
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
    const { totals: row, latencies } = await apiUsage(
      this.dataSource,
      since,
      now,
      OFFLINE_MODEL_NAME,
      RESPONSE_TIMES_SHOWN,
    );
    const usage = {
      calls: row?.calls ?? 0,
      cost: round(Number(row?.cost ?? 0), 6),
      tokens: Number(row?.tokens ?? 0),
      errors: row?.errors ?? 0,
      averageResponseTime: Math.round(row?.avg_latency ?? 0),
    };
    return {
      ...usage,
      responseTimes: [...latencies].reverse(),
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
    const row =
      (await conversationQualityFigures(this.dataSource, since, now, {
        substantiveChars: SUBSTANTIVE_RESPONSE_CHARS,
        detailedChars: DETAILED_RESPONSE_CHARS,
        slowMs: SLOW_RESPONSE_MS,
      })) ?? {};
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
    const { counts, newest, fallbacks } = await fallbackFigures(
      this.dataSource,
      { weekAgo, dayAgo, now },
      RECENT_FALLBACKS_SHOWN,
    );
    const byTier = new Map(counts.map((c) => [c.tier, c]));
    const chain = FALLBACK_CHAIN.map((info) => ({
      ...info,
      last24Hours: byTier.get(info.tier)?.day ?? 0,
      last7Days: byTier.get(info.tier)?.week ?? 0,
    }));
    const total24 = chain.reduce((sum, tier) => sum + tier.last24Hours, 0);
    const below24 = chain.filter((t) => t.tier !== 'primary').reduce((sum, t) => sum + t.last24Hours, 0);
    const latest = newest;
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
