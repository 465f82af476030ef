import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import {
  CALENDAR_PREVIEW_WEEKS,
  CALENDAR_UPCOMING_DAYS,
  type CalendarSendKindValue,
  type GardenCalendarAlert,
  type GardenCalendarPreview,
  type GardenCalendarSend,
  type GardenCalendarSubscribersPage,
  type GardenCalendarSummary,
  type GardenCalendarUpcoming,
  OPT_OUT_AFTER_TIP_DAYS,
  type WeatherAlertKindValue,
  unknownPreviewZip,
} from '@sprout/contracts';
import {
  gardenCalendarCounts,
  isGardenCalendarPaused,
  gardenCalendarSubscribers,
  recentCalendarSends,
  recentWeatherAlerts,
  scheduledSendsByDay,
  setGardenCalendarPaused,
} from '@sprout/domain';
import {
  addDaysToDate,
  calendarTipsFor,
  frostDatesFor,
  hardinessZoneForZip,
  localDateOf,
  localInstant,
  lookupZip,
  timeZoneForZip,
} from '@sprout/gardening';
import { CONFIG, maskPhoneNumbers } from '@sprout/platform';
import { DataSource } from 'typeorm';
import type { ApiGatewayConfig } from '../config';

/** The garden calendar as the console sees it: figures, lists, a ZIP's preview and the pause switch. */
@Injectable()
export class GardenCalendarService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: ApiGatewayConfig,
  ) {}

  async summary(now = new Date()): Promise<GardenCalendarSummary> {
    const [counts, paused] = await Promise.all([
      gardenCalendarCounts(this.dataSource, now, OPT_OUT_AFTER_TIP_DAYS),
      isGardenCalendarPaused(this.dataSource),
    ]);
    return {
      subscribers: counts.subscribers,
      offered: counts.offered,
      declined: counts.declined,
      unsubscribed: counts.unsubscribed,
      paused,
      optOutRateAfterTips: counts.tippedUsers === 0 ? null : counts.optedOutAfterTips / counts.tippedUsers,
      tippedUsers: counts.tippedUsers,
      optedOutAfterTips: counts.optedOutAfterTips,
      sentLast30Days: counts.sentLast30Days,
    };
  }

  async subscribers(page: number, pageSize: number): Promise<GardenCalendarSubscribersPage> {
    const { rows, total } = await gardenCalendarSubscribers(this.dataSource, page, pageSize);
    return {
      subscribers: rows.map((r) => ({
        userId: r.userId,
        maskedPhone: maskPhoneNumbers(r.phoneNumber),
        zipCode: r.zipCode,
        hardinessZone: r.hardinessZone,
        since: r.since?.toISOString() ?? null,
        tipsSent: r.tipsSent,
      })),
      total,
      page,
      pageSize,
    };
  }

  async upcoming(now = new Date()): Promise<GardenCalendarUpcoming> {
    const timeZone = this.config.spendTimeZone;
    const days = await scheduledSendsByDay(this.dataSource, now, timeZone, CALENDAR_UPCOMING_DAYS);
    return {
      timeZone,
      days: days.map((d) => ({
        date: d.date,
        tip: d.tip,
        frost_alert: d.frostAlert,
        heat_alert: d.heatAlert,
      })),
    };
  }

  /**
   * What the calendar would send a gardener in `zip` for 8 weeks from `from` (a local date; today
   * there when absent); 400 for a ZIP it cannot time.
   */
  preview(zip: string, from: string | undefined, now = new Date()): GardenCalendarPreview {
    const place = lookupZip(zip);
    const frost = frostDatesFor({ zipCode: zip });
    const timeZone = timeZoneForZip(zip);
    if (place === null || frost === null || timeZone === null) {
      throw new BadRequestException(unknownPreviewZip(zip));
    }
    const first = from ?? localDateOf(now, timeZone);
    const last = addDaysToDate(first, CALENDAR_PREVIEW_WEEKS * 7 - 1);
    // Noon: a local day's instant that no daylight-saving change moves to another day.
    const noonOf = (date: string) => localInstant(date, 12 * 60, timeZone);
    return {
      zipCode: zip,
      place: `${place.city}, ${place.state}`,
      zone: hardinessZoneForZip(zip)?.zone ?? null,
      timeZone,
      lastFrost: frost.lastSpringFrost,
      firstFrost: frost.firstFallFrost,
      from: first,
      until: last,
      tips: calendarTipsFor({ zipCode: zip, from: noonOf(first), until: noonOf(last) }),
    };
  }

  async sends(limit: number): Promise<GardenCalendarSend[]> {
    const rows = await recentCalendarSends(this.dataSource, limit);
    return rows.map((r) => ({
      id: r.id,
      sentAt: r.sentAt?.toISOString() ?? null,
      kind: r.kind as CalendarSendKindValue,
      maskedPhone: maskPhoneNumbers(r.phoneNumber),
      body: r.body,
      deliveryStatus: r.deliveryStatus,
      costUsd: r.smsCost,
    }));
  }

  async alerts(limit: number): Promise<GardenCalendarAlert[]> {
    const rows = await recentWeatherAlerts(this.dataSource, limit);
    return rows.map((r) => ({
      id: r.id,
      gridKey: r.gridKey,
      kind: r.kind as WeatherAlertKindValue,
      eventDate: r.eventDate,
      lowF: r.lowF,
      highF: r.highF,
      forecast: r.forecast,
      raisedAt: r.raisedAt.toISOString(),
      textsSent: r.textsSent,
    }));
  }

  async setPaused(paused: boolean): Promise<boolean> {
    await setGardenCalendarPaused(this.dataSource, paused);
    return paused;
  }
}
