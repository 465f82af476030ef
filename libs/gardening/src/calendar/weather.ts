import { frostDatesFor } from '../places/frost';
import { hardinessZoneForZip } from '../places/hardiness';
import { tipText } from './calendar-tips';
import { localDateOf, timeZoneForZip } from './time-zone';

/** A forecast low at or below this is a freeze for tender plants. */
export const FREEZE_F = 32;

/**
 * A forecast high at or above this is a heat extreme: 95F where summers are mild, 100F in zone 9
 * and warmer, where 95F is an ordinary summer day that gardens there are planted for.
 */
export function heatThresholdF(zone: string | null): number {
  return zone !== null && parseInt(zone, 10) >= 9 ? 100 : 95;
}

/**
 * Whether tender plants are out at a ZIP on an instant's local date: between the average last
 * spring frost and first fall frost; every day where it never freezes. False for an unknown ZIP.
 */
export function tenderSeasonAt(zipCode: string, at: Date): boolean {
  const timeZone = timeZoneForZip(zipCode);
  const dates = frostDatesFor({ zipCode, zone: hardinessZoneForZip(zipCode)?.zone ?? null });
  if (timeZone === null || dates === null) return false;
  if (dates.lastSpringFrost === 'frost-free') return true;
  const monthDay = localDateOf(at, timeZone).slice(5);
  return monthDay >= dates.lastSpringFrost && monthDay <= dates.firstFallFrost;
}

export interface WeatherAlertFacts {
  kind: 'freeze' | 'heat';
  temperatureF: number;
  /** The NWS period's name: "Tonight", "Tuesday Night", "Wednesday". */
  when: string;
}

/** The text of a frost or heat alert: what NWS forecasts and what to do; two GSM-7 segments at most. */
export function weatherAlertText(facts: WeatherAlertFacts): string {
  const name = facts.when.trim();
  const when =
    name === ''
      ? 'soon'
      : /^(today|tonight|this afternoon|overnight)/i.test(name)
        ? name.toLowerCase()
        : `on ${name.replace(/ Night$/, ' night')}`;
  const body =
    facts.kind === 'freeze'
      ? `Frost alert: the National Weather Service forecasts a low of ${facts.temperatureF}F ${when}. ` +
        'Cover tomatoes, peppers, basil and seedlings with sheets or buckets before dark, and water the soil first.'
      : `Heat alert: the National Weather Service forecasts a high of ${facts.temperatureF}F ${when}. ` +
        'Water deeply early in the morning, mulch, and shade tomatoes, peppers and greens in the afternoon.';
  return tipText(body);
}
