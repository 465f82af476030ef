import { Inject, Injectable, Logger } from '@nestjs/common';
import { type MessageKind, type SmsSent, recordSmsSent, smsSpentSince, spendDay } from '@sprout/domain';
import { CONFIG, Metrics } from '@sprout/platform';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import type { SmsGatewayConfig } from '../config';
import { smsGatewayMetrics } from '../metrics';

/** The error code of a message not sent because the day's SMS spending limit was reached. */
export const SMS_SPEND_LIMIT_ERROR_CODE = 'sms-spend-limit';

/** Shares of SMS_DAILY_SPEND_LIMIT announced once a day each (a log line and a metric). */
const THRESHOLDS = [0.8, 1] as const;
const ALERT_KEY_TTL_SECONDS = 2 * 24 * 60 * 60;

const dollars = (value: number): string => `$${value.toFixed(2)}`;

/**
 * What sending costs: each message Twilio accepts records its price (SMS_PRICE_PER_SEGMENT per
 * segment, or MMS_PRICE_PER_MESSAGE for one with media) on the message, its user and the day's
 * ledger, once. With SMS_DAILY_SPEND_LIMIT set, a message other than a keyword confirmation is
 * not sent once today's SMS spend has reached it; crossing 80% and 100% is logged and counted
 * once a day across replicas (Redis SET NX). Sends in flight when the limit is reached still
 * go out, so the day overshoots by at most those.
 */
@Injectable()
export class SmsSpending {
  private readonly logger = new Logger(SmsSpending.name);
  private readonly metrics;

  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
    metrics: Metrics,
  ) {
    this.metrics = smsGatewayMetrics(metrics);
  }

  /** The list price of sending `segments` segments, or one MMS. */
  costOf(segments: number, mms: boolean): number {
    return mms ? this.config.mmsPricePerMessage : segments * this.config.smsPricePerSegment;
  }

  /**
   * Why a message of `kind` may not be sent now (today's SMS spend has reached the limit), or null.
   * Keyword confirmations always go: carriers require STOP and HELP to be answered.
   */
  async refusal(kind: MessageKind, now: Date): Promise<string | null> {
    const limit = this.config.smsDailySpendLimit;
    if (limit === undefined || kind === 'consent') return null;
    const day = spendDay(now, this.config.spendTimeZone);
    const spent = await smsSpentSince(this.dataSource, day.start);
    this.metrics.spendToday.set(spent);
    if (spent < limit) return null;
    this.metrics.sendsRefused.inc();
    await this.announce(day.key, 1, spent, limit);
    return `Not sent: today's SMS spending limit (${dollars(limit)}, SMS_DAILY_SPEND_LIMIT) was reached; replies are sent again after midnight (${this.config.spendTimeZone}).`;
  }

  /** Records a message Twilio accepted with its cost; false when it had been recorded before. */
  async recordSent(sent: Omit<SmsSent, 'cost'>, mms: boolean, now: Date): Promise<boolean> {
    const day = spendDay(now, this.config.spendTimeZone);
    // A message Twilio cancelled is not billed.
    const cost = sent.status === 'failed' ? 0 : this.costOf(sent.segments, mms);
    const { recorded, spent } = await recordSmsSent(this.dataSource, { ...sent, cost }, day.start);
    if (spent === null) return recorded;
    this.metrics.spendToday.set(spent);
    const limit = this.config.smsDailySpendLimit;
    if (limit !== undefined && recorded) {
      for (const share of THRESHOLDS)
        if (spent >= limit * share) await this.announce(day.key, share, spent, limit);
    }
    return recorded;
  }

  /** Logs and counts a crossed threshold once per day and limit, whichever replica sees it first. */
  private async announce(dayKey: string, share: number, spent: number, limit: number): Promise<void> {
    const percent = Math.round(share * 100);
    const key = `${this.config.bullmqPrefix}:sms-spend-alert:${dayKey}:${percent}:${limit}`;
    const first = await this.redis
      .set(key, String(Date.now()), 'EX', ALERT_KEY_TTL_SECONDS, 'NX')
      // Without Redis every replica may log it; better twice than never.
      .catch(() => 'OK');
    if (first === null) return;
    this.metrics.spendThresholdCrossed.inc({ threshold: String(percent) });
    const used = `${dollars(spent)} of ${dollars(limit)} (${((spent / limit) * 100).toFixed(1)}%)`;
    const zone = this.config.spendTimeZone;
    this.logger.warn(
      share >= 1
        ? `Daily SMS spending limit reached on ${dayKey} (${zone}): ${used}; only keyword confirmations are sent until midnight`
        : `Daily SMS spend crossed ${percent}% of the limit on ${dayKey} (${zone}): ${used}`,
    );
  }
}
