import type { DataSource } from 'typeorm';
import type { Db } from '../db';
import type { LlmPurpose } from '../types';
import { type SpendDay, spendDay } from './spend-day';
import {
  type LedgerCall,
  type SpendReservation,
  type UnpaidCall,
  recordUnpaidCall,
  reserveSpend,
  settleSpend,
} from './statements';

/** Shares of the daily limit (percent) announced once a day each. */
const SPEND_THRESHOLDS = [80, 100] as const;
export type SpendThreshold = (typeof SPEND_THRESHOLDS)[number];
/** How long past the call's own deadline a reservation of a process that died keeps holding. */
const RESERVATION_GRACE_MS = 60_000;
/** How long "already announced" is remembered: past the end of any time zone's day. */
const ALERT_TTL_SECONDS = 2 * 24 * 60 * 60;

/** What the ledger tells the service it runs in (metrics, logs, the replicas' shared memory). */
export interface SpendSignals {
  /** Today's spend and the limit, as last seen (gauges). */
  spend(spent: number, limit: number): void;
  /** A paid call not made: the day's budget is reached. */
  refused(purpose: LlmPurpose): void;
  /** True for the first caller of all replicas to claim `key` before it expires. */
  claimOnce(key: string, ttlSeconds: number): Promise<boolean>;
  /** A share of the limit crossed, announced once a day and limit across replicas. */
  crossed(threshold: SpendThreshold, message: string): void;
}

export interface SpendLedgerOptions {
  /** The spending day runs midnight to midnight here (SPEND_TIME_ZONE). */
  timeZone: string;
  signals?: SpendSignals;
}

export interface PaidCallRequest {
  purpose: LlmPurpose;
  /** Dollars: the counted prompt and every completion token allowed, at the model's prices. */
  worstCase: number;
  /** The call's own deadline: the reservation lapses a minute after it if never settled. */
  deadlineMs: number;
}

/** Cents for dollar amounts, four decimals below a dollar (a reply's cost). */
const dollars = (value: number): string => `$${value.toFixed(Math.abs(value) >= 1 ? 2 : 4)}`;

/**
 * The ledger of paid calls, the one writer of llm_calls and spend_reservations, used by replies,
 * summaries and image analysis alike, so the daily spending limit is a hard cap on all of them.
 * A paid call reserves its worst case before calling and is admitted only while today's spend
 * plus every reservation in flight is under the limit (`reserve_spend()`, shared by all replicas
 * through Postgres): the day overshoots the limit by at most one call's worst case. Afterwards it
 * settles: its llm_calls row written and its reservation dropped in one statement. Rows that cost
 * nothing (template answers, offline analyses) are written by `recordUnpaid`. Crossing 80% and
 * 100% of the limit is announced once per day and limit across replicas.
 */
export class SpendLedger {
  constructor(
    private readonly dataSource: DataSource,
    private readonly options: SpendLedgerOptions,
  ) {}

  /**
   * Reserves the call's worst case; null once today's budget is reached (the caller answers
   * without a model). A call of unknown price reserves 0, and is refused likewise.
   */
  async reserve(request: PaidCallRequest, now: Date = new Date()): Promise<SpendReservation | null> {
    const day = this.day(now);
    const outcome = await reserveSpend(this.dataSource, {
      amount: request.worstCase,
      since: day.start,
      ttlMs: request.deadlineMs + RESERVATION_GRACE_MS,
    });
    this.options.signals?.spend(outcome.spent, outcome.limit);
    if (outcome.reservation !== null) {
      await this.checkThresholds(day, outcome.spent, outcome.limit);
      return outcome.reservation;
    }
    this.options.signals?.refused(request.purpose);
    const inFlight =
      outcome.spent < outcome.limit ? ` with ${dollars(outcome.held)} held by calls in flight` : '';
    await this.checkThresholds(day, outcome.spent, outcome.limit, inFlight);
    return null;
  }

  /**
   * Writes the call's llm_calls row (its real cost, 0 for a failure) and drops its reservation in
   * one statement, so the spend never counts the call twice or not at all. Answers the row's id.
   */
  async settle(reservation: SpendReservation, call: LedgerCall, now: Date = new Date()): Promise<string> {
    // With a cost the statement also answers the day's spend, for the gauges and thresholds.
    const day = call.cost > 0 ? this.day(now) : undefined;
    const settled = await settleSpend(this.dataSource.manager, reservation.id, call, day?.start);
    if (day !== undefined && settled.spent !== null && settled.limit !== null) {
      this.options.signals?.spend(settled.spent, settled.limit);
      await this.checkThresholds(day, settled.spent, settled.limit);
    }
    return settled.id;
  }

  /** Writes a row that costs nothing (no reservation), in `db`'s transaction when it is one. */
  recordUnpaid(call: UnpaidCall, db: Db = this.dataSource): Promise<string> {
    return recordUnpaidCall(db, call);
  }

  private day(now: Date): SpendDay {
    return spendDay(now, this.options.timeZone);
  }

  /**
   * Announces the shares of the limit `spent` has reached; with `refused` (a call was just refused,
   * its words for why) 100% in any case. Calls settling at once do not see each other's cost, so a
   * crossing may first show at the next reservation, refused ones included.
   */
  private async checkThresholds(
    day: SpendDay,
    spent: number,
    limit: number,
    refused?: string,
  ): Promise<void> {
    for (const percent of SPEND_THRESHOLDS) {
      const reached = limit > 0 ? spent >= (limit * percent) / 100 : percent === 100;
      const reason = percent === 100 ? refused : undefined;
      if (reached || reason !== undefined) await this.announce(day, percent, spent, limit, reason);
    }
  }

  /** Announces a crossed threshold once per day and limit, whichever replica sees it first. */
  private async announce(
    day: SpendDay,
    percent: SpendThreshold,
    spent: number,
    limit: number,
    detail = '',
  ): Promise<void> {
    const signals = this.options.signals;
    if (signals === undefined) return;
    if (!(await signals.claimOnce(`spend-alert:${day.key}:${percent}:${limit}`, ALERT_TTL_SECONDS))) return;
    const used = limit > 0 ? ` (${((spent / limit) * 100).toFixed(1)}%)` : '';
    const when = `on ${day.key} (${this.options.timeZone}): ${dollars(spent)} of ${dollars(limit)}${used}`;
    signals.crossed(
      percent,
      percent === 100
        ? `Daily AI spending limit reached ${when}${detail}; until midnight replies answer from templates, summaries are written by rules and photos are described offline`
        : `Daily AI spend crossed ${percent}% of the limit ${when}`,
    );
  }
}
