import tzLookup from '@photostructure/tz-lookup';
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

const dateFormats = new Map<string, Intl.DateTimeFormat>();

const partsIn = (instant: Date, timeZone: string): Record<string, number> => {
  let format = dateFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    dateFormats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return parts;
};

/** The local calendar date ("YYYY-MM-DD") of an instant in a time zone. */
export function localDateOf(instant: Date, timeZone: string): string {
  const p = partsIn(instant, timeZone);
  return `${String(p['year']).padStart(4, '0')}-${String(p['month']).padStart(2, '0')}-${String(p['day']).padStart(2, '0')}`;
}

/** Minutes since local midnight of an instant in a time zone (0-1439). */
export function localMinutesOf(instant: Date, timeZone: string): number {
  const p = partsIn(instant, timeZone);
  return (p['hour'] ?? 0) * 60 + (p['minute'] ?? 0);
}

/** Offset of local wall time from UTC at an instant, in ms. */
const offsetAt = (instant: Date, timeZone: string): number => {
  const p = partsIn(instant, timeZone);
  const wall = Date.UTC(
    p['year'] ?? 1970,
    (p['month'] ?? 1) - 1,
    p['day'] ?? 1,
    p['hour'] ?? 0,
    p['minute'] ?? 0,
    p['second'] ?? 0,
  );
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
};

/**
 * The instant a local wall time ("YYYY-MM-DD" at minutes past midnight) happens in a time zone,
 * with that day's daylight-saving offset. A wall time skipped by a spring-forward gap maps to
 * the instant an hour later; daytime hours never are.
 */
export function localInstant(date: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, 0, minutes);
  const first = wall - offsetAt(new Date(wall), timeZone);
  const second = wall - offsetAt(new Date(first), timeZone);
  return new Date(second);
}

/** "YYYY-MM-DD" moved by whole days. */
export function addDaysToDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
}
