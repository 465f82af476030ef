import { Inject, Injectable } from '@nestjs/common';
import type { JobResult } from '@sprout/contracts';
import {
  type CalendarSendDecision,
  type DueCalendarSend,
  dueCalendarSends,
  isGardenCalendarPaused,
  settleCalendarSend,
} from '@sprout/domain';
import { isDaytimeAt, timeZoneForZip } from '@sprout/gardening';
import { CONFIG, JobQueues, LOGGER } from '@sprout/platform';
import { analyzeSms } from '@sprout/sms';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { SurveySchedulerConfig } from '../config';

/** Rows looked at per run; the rest are next minute's. */
const BATCH = 200;
/** A tip this late (a long pause, an outage) is no longer timely: skipped. */
const TIP_STALE_MS = 48 * 60 * 60 * 1000;
/** An alert this late is about weather that has passed. */
const ALERT_STALE_MS = 12 * 60 * 60 * 1000;

/**
 * Sends the calendar texts now due, each through the same path as every reply: the message is
 * written (kind calendar, queued) and an sms.outbound job added, so sms-gateway's pacing, daily
 * SMS spending limit and opt-out check apply at the moment of sending. Before writing it, with
 * the user's row locked, consent is checked again: opted out (STOP) or tips off cancels the
 * text, the console's pause skips it, and outside 9:00-20:00 in the user's time zone it waits.
 */
@Injectable()
export class CalendarSenderService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    @Inject(CONFIG) private readonly config: SurveySchedulerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async sendDue(now: Date): Promise<JobResult<'calendar.send'>> {
    const report = { sent: 0, skipped: 0, cancelled: 0, later: 0 };
    const due = await dueCalendarSends(this.dataSource, now, BATCH);
    if (due.length === 0) return report;
    const paused = await isGardenCalendarPaused(this.dataSource);
    for (const id of due) {
      const outcome = await settleCalendarSend(
        this.dataSource,
        id,
        now,
        this.config.conversationIdleTimeoutMs,
        (row) => this.decide(row, now, paused),
      );
      if (outcome.outcome === 'sent') {
        await this.queues.enqueue('sms.outbound', { messageId: outcome.messageId });
        report.sent += 1;
      } else if (outcome.outcome === 'skipped') report.skipped += 1;
      else if (outcome.outcome === 'cancelled') report.cancelled += 1;
      else if (outcome.outcome === 'later') report.later += 1;
    }
    if (report.sent + report.skipped + report.cancelled > 0)
      this.logger.info(report, 'garden calendar sends');
    return report;
  }

  private decide(row: DueCalendarSend, now: Date, paused: boolean): CalendarSendDecision {
    if (row.optedOut) return { send: false, status: 'cancelled', reason: 'opted_out' };
    if (row.tipsStatus !== 'subscribed') return { send: false, status: 'cancelled', reason: 'tips_off' };
    if (paused) return { send: false, status: 'skipped', reason: 'paused' };
    const late = now.getTime() - row.scheduledFor.getTime();
    if (late > (row.kind === 'tip' ? TIP_STALE_MS : ALERT_STALE_MS)) {
      return { send: false, status: 'skipped', reason: 'stale' };
    }
    const timeZone = row.zipCode === null ? null : timeZoneForZip(row.zipCode);
    if (timeZone === null) return { send: false, status: 'skipped', reason: 'no_zip' };
    if (!isDaytimeAt(now, timeZone)) return { send: false, retry: true };
    const { encoding, segments } = analyzeSms(row.body);
    return { send: true, encoding, segments };
  }
}
