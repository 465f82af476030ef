import { Inject, Injectable } from '@nestjs/common';
import type { JobResult } from '@sprout/contracts';
import {
  type CalendarSendDraft,
  insertCalendarSends,
  isGardenCalendarPaused,
  raiseWeatherAlert,
  subscriberZips,
} from '@sprout/domain';
import {
  FREEZE_F,
  hardinessZoneForZip,
  heatThresholdF,
  localDateOf,
  lookupZip,
  sendTimeFor,
  tenderSeasonAt,
  timeZoneForZip,
  weatherAlertText,
} from '@sprout/gardening';
import { LOGGER, Metrics } from '@sprout/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { surveySchedulerMetrics } from '../metrics';
import { type NwsGrid, type NwsPeriod, NwsClient } from './nws-client';

/** How far ahead a freeze or heat extreme is worth a text. */
const LOOKAHEAD_MS = 48 * 60 * 60 * 1000;

/** A subscriber's ZIP as the check sees it. */
interface WatchedZip {
  zipCode: string;
  userIds: string[];
  timeZone: string;
  zone: string | null;
}

/** The first forecast period within 48 hours that is a freeze, or a heat extreme for `zone`. */
const extremeIn = (
  periods: readonly NwsPeriod[],
  kind: 'freeze' | 'heat',
  zone: string | null,
  now: Date,
): NwsPeriod | null =>
  periods.find(
    (p) =>
      p.endTime.getTime() > now.getTime() &&
      p.startTime.getTime() < now.getTime() + LOOKAHEAD_MS &&
      (kind === 'freeze'
        ? !p.isDaytime && p.temperatureF <= FREEZE_F
        : p.isDaytime && p.temperatureF >= heatThresholdF(zone)),
  ) ?? null;

/**
 * Reads the NWS forecast once per grid where subscribers garden (points cached, so ZIPs sharing
 * a grid cost one forecast) and, for a freeze (low <= 32F) or a heat extreme (high >= 95F, 100F
 * in zone 9+) in the next 48 hours, raises one weather_alert per grid, kind and day, then
 * schedules one text per subscriber whose ZIP is in its tender season (task key
 * alert:<alert id>, so never twice), in their daytime. A grid the NWS does not answer is logged
 * and tried again next run; nothing else waits on it.
 */
@Injectable()
export class WeatherWatchService {
  private readonly metrics;

  constructor(
    private readonly dataSource: DataSource,
    private readonly nws: NwsClient,
    metrics: Metrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.metrics = surveySchedulerMetrics(metrics);
  }

  async check(now: Date): Promise<JobResult<'calendar.weather'>> {
    const report = { grids: 0, failed: 0, alerts: 0, texts: 0 };
    if (await isGardenCalendarPaused(this.dataSource)) return report;
    const grids = new Map<string, { grid: NwsGrid; zips: WatchedZip[] }>();
    for (const { zipCode, userIds } of await subscriberZips(this.dataSource)) {
      const place = lookupZip(zipCode);
      const timeZone = timeZoneForZip(zipCode);
      // Alerts are for the season tender plants are out: out of it, the ZIP costs no request.
      if (place === null || timeZone === null || !tenderSeasonAt(zipCode, now)) continue;
      let grid: NwsGrid;
      try {
        grid = await this.nws.gridFor(place.latitude, place.longitude, now.getTime());
      } catch (error) {
        report.failed += 1;
        this.unavailable(error, { zipCode });
        continue;
      }
      const entry = grids.get(grid.gridKey) ?? { grid, zips: [] };
      entry.zips.push({ zipCode, userIds, timeZone, zone: hardinessZoneForZip(zipCode)?.zone ?? null });
      grids.set(grid.gridKey, entry);
    }
    for (const { grid, zips } of grids.values()) {
      let periods: NwsPeriod[];
      try {
        periods = await this.nws.forecast(grid);
      } catch (error) {
        report.failed += 1;
        this.unavailable(error, { gridKey: grid.gridKey });
        continue;
      }
      report.grids += 1;
      for (const kind of ['freeze', 'heat'] as const) {
        const done = await this.alert(grid.gridKey, kind, periods, zips, now);
        report.alerts += done.alerts;
        report.texts += done.texts;
      }
    }
    return report;
  }

  private async alert(
    gridKey: string,
    kind: 'freeze' | 'heat',
    periods: readonly NwsPeriod[],
    zips: readonly WatchedZip[],
    now: Date,
  ): Promise<{ alerts: number; texts: number }> {
    // The grid's ZIPs are a few km apart: the first one's zone and time zone speak for the grid.
    const first = zips[0];
    if (first === undefined) return { alerts: 0, texts: 0 };
    const period = extremeIn(periods, kind, first.zone, now);
    if (period === null) return { alerts: 0, texts: 0 };
    const raised = await raiseWeatherAlert(this.dataSource, {
      gridKey,
      kind,
      eventDate: localDateOf(period.startTime, first.timeZone),
      lowF: kind === 'freeze' ? period.temperatureF : null,
      highF: kind === 'heat' ? period.temperatureF : null,
      forecast: `${period.name}: ${period.detailedForecast}`.trim(),
      raisedAt: now,
    });
    const body = weatherAlertText({ kind, temperatureF: period.temperatureF, when: period.name });
    const drafts: CalendarSendDraft[] = zips.flatMap((zip) =>
      zip.userIds.map((userId) => ({
        userId,
        kind: kind === 'freeze' ? ('frost_alert' as const) : ('heat_alert' as const),
        taskKey: `alert:${raised.id}`,
        // Now in the gardener's daytime, else at 9:00 their next morning.
        scheduledFor: sendTimeFor(localDateOf(now, zip.timeZone), 9 * 60, zip.timeZone, now),
        body,
        weatherAlertId: raised.id,
      })),
    );
    const written = await insertCalendarSends(this.dataSource, drafts);
    if (raised.created) {
      this.logger.info(
        { gridKey, kind, eventDate: period.startTime, texts: written.length },
        'weather alert raised',
      );
    }
    return { alerts: raised.created ? 1 : 0, texts: written.length };
  }

  private unavailable(error: unknown, where: Record<string, string>): void {
    this.metrics.nwsFailures.inc();
    this.logger.warn(
      { ...where, err: error instanceof Error ? error.message : String(error) },
      'NWS unavailable; tried again next run',
    );
  }
}
