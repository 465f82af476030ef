import tzLookup from '@photostructure/tz-lookup';
import { utcOffsetAt, wallClockAt, wallDate } from '@sprout/contracts';
import { lookupZip } from '../places/zip';

/**
 * The IANA time zone of a ZIP's centre point (null for an unknown ZIP). The point is looked up in
 * time-zone boundaries rather than by state, so split states (Indiana, Kentucky, Tennessee, the
 * Florida panhandle, Idaho, Oregon's Malheur county, the Dakotas, Nebraska, Kansas, far west
 * Texas, the Aleutians, the Navajo Nation) come out right except for the odd ZIP whose centre
 * lies across the line from its gardens. Daylight saving is then Intl's business.
 */
export function timeZoneForZip(zip: string): string | null {
  const place = lookupZip(zip);
  if (place === null) return null;
  try {
    return tzLookup(place.latitude, place.longitude);
  } catch {
    return null;
  }
}

/** The local calendar date ("YYYY-MM-DD") of an instant in a time zone. */
export function localDateOf(instant: Date, timeZone: string): string {
  return wallDate(wallClockAt(instant, timeZone));
}

/** Minutes since local midnight of an instant in a time zone (0-1439). */
export function localMinutesOf(instant: Date, timeZone: string): number {
  const { hour, minute } = wallClockAt(instant, timeZone);
  return hour * 60 + minute;
}

/**
 * The instant a local wall time ("YYYY-MM-DD" at minutes past midnight) happens in a time zone,
 * with that day's daylight-saving offset. A wall time skipped by a spring-forward gap maps to
 * the instant an hour later; daytime hours never are.
 */
export function localInstant(date: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, 0, minutes);
  const first = wall - utcOffsetAt(new Date(wall), timeZone);
  const second = wall - utcOffsetAt(new Date(first), timeZone);
  return new Date(second);
}

/** "YYYY-MM-DD" moved by whole days. */
export function addDaysToDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
}
