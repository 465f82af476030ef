import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  LlmCall,
  type LlmPurpose,
  type LlmTier,
  type SettledCall,
  type SpendReservation,
  readSpendSnapshot,
  reserveSpend,
  settleSpend,
  spendDay,
} from '@sprout/domain';
import { CONFIG, Metrics } from '@sprout/platform';
import { Redis } from 'ioredis';
import { DataSource, type EntityManager } from 'typeorm';
import { type AiResponderConfig } from '../config';

export interface SpendingState {
  /** Dollars spent on model calls since midnight in SPEND_TIME_ZONE. */
  spentToday: number;
  /** Dollars held by model calls in flight. */
  reserved: number;
  /** The daily limit in dollars (settings spending_limit, default 50). */
  limit: number;
  /** Spent and reserved together have reached the limit: no model call is admitted. */
  reached: boolean;
}

/** One llm_calls row. `model` is null for template and minimal answers, which call no model. */
export type LlmCallRecord = Omit<SettledCall, 'purpose' | 'tier'> & { purpose: LlmPurpose; tier: LlmTier };

export type { SpendReservation };

/** Shares of the daily limit that are announced once a day each (a log line and a metric). */
const SPEND_THRESHOLDS = [0.8, 1] as const;
/** How long past the call's own deadline a reservation of a process that died keeps holding. */
const RESERVATION_GRACE_MS = 60_000;
const ALERT_KEY_TTL_SECONDS = 2 * 24 * 60 * 60;

/** Cents for dollar amounts, four decimals below a dollar (a reply's cost). */
const dollars = (value: number): string => `$${value.toFixed(Math.abs(value) >= 1 ? 2 : 4)}`;

/**
 * The daily AI budget as a hard cap, and the ledger of model calls (llm_calls) it is computed
 * from. A model call first reserves its worst-case cost, and is admitted only while today's spend
 * plus every reservation in flight is under the limit (libs/domain reserveSpend, shared by all
 * replicas through Postgres): however many replies run at once, the day overshoots the limit by
 * at most one call's worst case. Afterwards the call settles: its llm_calls row is written and the
 * reservation dropped in one transaction. Crossing 80% and 100% of the limit is logged and
 * counted once per day and limit, across replicas (Redis SET NX).
 */
@Injectable()
export class SpendingService {
  private readonly logger = new Logger(SpendingService.name);
  private readonly crossed;
  private readonly refused;
  private readonly spentGauge;
  private readonly limitGauge;

  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AiResponderConfig,
    metrics: Metrics,
  ) {
    this.crossed = metrics.counter(
      'sprout_spend_threshold_crossed_total',
      'Times the day’s AI spend crossed a share of the daily limit (80 or 100 percent)',
      ['threshold'] as const,
    );
    this.refused = metrics.counter(
      'sprout_spend_calls_refused_total',
      'Model calls not made because the daily spending limit was reached',
    );
    this.spentGauge = metrics.gauge(
      'sprout_spend_today_dollars',
      'AI spend since midnight (SPEND_TIME_ZONE)',
    );
    this.limitGauge = metrics.gauge('sprout_spend_limit_dollars', 'The daily AI spending limit');
  }

  async state(now: Date = new Date()): Promise<SpendingState> {
    const snapshot = await readSpendSnapshot(this.dataSource.manager, this.day(now).start);
    return {
      spentToday: snapshot.spent,
      reserved: snapshot.held,
      limit: snapshot.limit,
      reached: snapshot.spent + snapshot.held >= snapshot.limit,
    };
  }

  /**
   * Reserves `worstCase` dollars for one model call; null once today's budget is reached (the
   * caller answers from templates). A call of unknown price reserves 0, and is refused likewise.
   */
  async reserve(worstCase: number, now: Date = new Date()): Promise<SpendReservation | null> {
    const day = this.day(now);
    const outcome = await reserveSpend(this.dataSource, {
      amount: worstCase,
      since: day.start,
      ttlMs: this.config.llmTimeoutMs + RESERVATION_GRACE_MS,
    });
    this.observe(outcome.spent, outcome.limit);
    if (outcome.reservation === null) {
      this.refused.inc();
      const inFlight =
        outcome.spent < outcome.limit ? ` with ${dollars(outcome.held)} held by calls in flight` : '';
      await this.announce(day.key, 1, outcome.spent, outcome.limit, inFlight);
    } else {
      await this.checkThresholds(day.key, outcome.spent, outcome.limit);
    }
    return outcome.reservation;
  }

  /**
   * Writes the call's llm_calls row (its real cost) and drops its reservation in one transaction,
   * so the spend never counts the call twice or not at all. Answers the row's id.
   */
  async settle(reservation: SpendReservation, call: LlmCallRecord, now: Date = new Date()): Promise<string> {
    // One statement; with a cost it also answers the day's spend for the gauges and thresholds.
    const day = call.cost > 0 ? this.day(now) : undefined;
    const settled = await settleSpend(this.dataSource.manager, reservation.id, call, day?.start);
    if (day !== undefined && settled.spent !== null && settled.limit !== null) {
      this.observe(settled.spent, settled.limit);
      await this.checkThresholds(day.key, settled.spent, settled.limit);
    }
    return settled.id;
  }

  /** Writes a call at once (outside any reply transaction), so a paid call is never lost. */
  async record(call: LlmCallRecord, manager: EntityManager = this.dataSource.manager): Promise<string> {
    const inserted = await manager.insert(LlmCall, {
      ...call,
      totalTokens: call.promptTokens + call.completionTokens,
    });
    const id = (inserted.identifiers[0] as { id?: string } | undefined)?.id;
    if (id === undefined) throw new Error('llm_calls insert returned no id');
    return id;
  }

  private day(now: Date) {
    return spendDay(now, this.config.spendTimeZone);
  }

  private observe(spent: number, limit: number): void {
    this.spentGauge.set(spent);
    this.limitGauge.set(limit);
  }

  private async checkThresholds(dayKey: string, spent: number, limit: number): Promise<void> {
    for (const share of SPEND_THRESHOLDS) {
      if (limit > 0 ? spent >= limit * share : share === 1) await this.announce(dayKey, share, spent, limit);
    }
  }

  /** Logs and counts a crossed threshold once per day and limit, whichever replica sees it first. */
  private async announce(
    dayKey: string,
    share: number,
    spent: number,
    limit: number,
    detail = '',
  ): Promise<void> {
    const percent = Math.round(share * 100);
    const key = `${this.config.bullmqPrefix}:spend-alert:${dayKey}:${percent}:${limit}`;
    let first: string | null;
    try {
      first = await this.redis.set(key, String(Date.now()), 'EX', ALERT_KEY_TTL_SECONDS, 'NX');
    } catch (error) {
      // Without Redis every replica may log it; better twice than never.
      this.logger.warn(
        `Spend alert dedupe unavailable: ${error instanceof Error ? error.message : String(error)}`,
      );
      first = 'OK';
    }
    if (first === null) return;
    this.crossed.inc({ threshold: String(percent) });
    const used = limit > 0 ? ` (${((spent / limit) * 100).toFixed(1)}%)` : '';
    const zone = this.config.spendTimeZone;
    if (share >= 1) {
      this.logger.warn(
        `Daily AI spending limit reached on ${dayKey} (${zone}): ${dollars(spent)} of ${dollars(limit)}${used}${detail}; replies answer from templates until midnight`,
      );
    } else {
      this.logger.warn(
        `Daily AI spend crossed ${percent}% of the limit on ${dayKey} (${zone}): ${dollars(spent)} of ${dollars(limit)}${used}`,
      );
    }
  }
}
