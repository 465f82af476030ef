import { Inject, Injectable } from '@nestjs/common';
import type { JobResult } from '@sprout/contracts';
import {
  type CalendarSendDraft,
  type TipsSubscriber,
  insertCalendarSends,
  isGardenCalendarPaused,
  plannedTaskKeys,
  recentInboundTexts,
  tipsCountedBetween,
  tipsSubscribers,
} from '@sprout/domain';
import {
  addDaysToDate,
  calendarTipsFor,
  cropsNamedIn,
  localInstant,
  sendTimeFor,
  timeZoneForZip,
  tipMinuteFor,
} from '@sprout/gardening';
import { CONFIG } from '@sprout/platform';
import { DataSource } from 'typeorm';
import type { SurveySchedulerConfig } from '../config';

/** Tips are planned this many days ahead (the console's "next 14 days"). */
const PLAN_DAYS = 14;
/** Subscribers planned per page (one short transaction each). */
const PAGE = 500;
/** The texts read for the crops a gardener talks about. */
const CROP_TEXTS = 50;

/**
 * Materialises each subscriber's tips for the next 14 days into calendar_sends: from their ZIP's
 * frost dates and the crops they talk about (or the region's defaults), each at their own
 * morning minute in their time zone. A task already planned (or sent) is never planned again
 * (UNIQUE user and task key). Tips over GARDEN_TIPS_PER_MONTH in a local calendar month are
 * recorded as skipped ('monthly_cap'), so they are settled and the console can say why.
 */
@Injectable()
export class TipsPlannerService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: SurveySchedulerConfig,
  ) {}

  async plan(now: Date): Promise<JobResult<'calendar.plan'>> {
    const report = { subscribers: 0, scheduled: 0, capped: 0, paused: false };
    if (await isGardenCalendarPaused(this.dataSource)) return { ...report, paused: true };
    let after: string | null = null;
    for (;;) {
      const page = await tipsSubscribers(this.dataSource, after, PAGE);
      for (const user of page) {
        const planned = await this.planFor(user, now);
        if (planned === null) continue;
        report.subscribers += 1;
        report.scheduled += planned.scheduled;
        report.capped += planned.capped;
      }
      if (page.length < PAGE) return report;
      after = page[page.length - 1]?.id ?? null;
    }
  }

  private async planFor(
    user: TipsSubscriber,
    now: Date,
  ): Promise<{ scheduled: number; capped: number } | null> {
    const timeZone = user.zipCode === null ? null : timeZoneForZip(user.zipCode);
    if (user.zipCode === null || timeZone === null) return null;
    const crops = cropsNamedIn(await recentInboundTexts(this.dataSource, user.id, CROP_TEXTS));
    const tips = calendarTipsFor({
      zipCode: user.zipCode,
      crops,
      from: now,
      until: new Date(now.getTime() + (PLAN_DAYS - 1) * 86_400_000),
    });
    // Tasks planned by an earlier run keep their rows (and are counted in the month already).
    const planned = await plannedTaskKeys(
      this.dataSource,
      user.id,
      tips.map((t) => t.key),
    );
    const minute = tipMinuteFor(user.id);
    // Counted per local calendar month: what is planned or sent already, plus this run's.
    const counted = new Map<string, number>();
    const drafts: CalendarSendDraft[] = [];
    for (const tip of tips) {
      if (planned.has(tip.key)) continue;
      const month = tip.date.slice(0, 7);
      if (!counted.has(month)) {
        const start = localInstant(`${month}-01`, 0, timeZone);
        const end = localInstant(`${addDaysToDate(`${month}-28`, 4).slice(0, 7)}-01`, 0, timeZone);
        counted.set(month, await tipsCountedBetween(this.dataSource, user.id, start, end));
      }
      const scheduledFor = sendTimeFor(tip.date, minute, timeZone, now);
      const used = counted.get(month) ?? 0;
      const capped = used >= this.config.gardenTipsPerMonth;
      drafts.push({
        userId: user.id,
        kind: 'tip',
        taskKey: tip.key,
        scheduledFor,
        body: tip.text,
        ...(capped ? { status: 'skipped' as const, skipReason: 'monthly_cap' } : {}),
      });
      if (!capped) counted.set(month, used + 1);
    }
    // A concurrent run may have written some meanwhile: only the keys written here count.
    const written = new Set(await insertCalendarSends(this.dataSource, drafts));
    const fresh = drafts.filter((d) => written.has(d.taskKey));
    return {
      scheduled: fresh.filter((d) => d.status === undefined).length,
      capped: fresh.filter((d) => d.status === 'skipped').length,
    };
  }
}
