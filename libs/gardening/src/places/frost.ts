import { placeAreaForZip } from './areas';
import { frostReferenceForZip } from './frost-shift';
import { hardinessZoneForZip } from './hardiness';

/** Approximate frost dates for a hardiness zone. */
export interface FrostDates {
  /** Average last spring frost as "MM-DD", or "frost-free". */
  lastSpringFrost: string;
  /** Average first fall frost as "MM-DD", or "frost-free". */
  firstFallFrost: string;
  /** Days between them (365 when frost-free). */
  growingSeasonDays: number;
}

/**
 * Commonly published average frost dates by half zone (50% probability dates, rounded). Zones are
 * a winter-cold measure, so these are rough: coastal and high-elevation gardens differ by weeks.
 * From 10b the coldest night of an average winter stays above 35 F: no frost date to give.
 */
const FROST_BY_HALF_ZONE: Readonly<Record<string, readonly [string, string]>> = {
  '1a': ['06-10', '08-10'],
  '1b': ['06-05', '08-18'],
  '2a': ['05-30', '08-25'],
  '2b': ['05-24', '08-31'],
  '3a': ['05-20', '09-06'],
  '3b': ['05-14', '09-12'],
  '4a': ['05-12', '09-22'],
  '4b': ['05-05', '09-30'],
  '5a': ['04-28', '10-08'],
  '5b': ['04-20', '10-15'],
  '6a': ['04-17', '10-20'],
  '6b': ['04-10', '10-27'],
  '7a': ['04-03', '11-02'],
  '7b': ['03-27', '11-08'],
  '8a': ['03-21', '11-13'],
  '8b': ['03-14', '11-20'],
  '9a': ['02-25', '11-30'],
  '9b': ['02-12', '12-08'],
  '10a': ['01-30', '12-15'],
};

const FROST_FREE: FrostDates = {
  lastSpringFrost: 'frost-free',
  firstFallFrost: 'frost-free',
  growingSeasonDays: 365,
};

/** "7b", "7B", "zone 7b", "7" -> "7b" / "7"; null when not a zone 1-13. */
export function normalizeZone(zone: string): string | null {
  const match = /^\s*(?:zone\s*)?(\d{1,2})\s*([ab])?\s*$/i.exec(zone);
  if (!match?.[1]) return null;
  const number = Number(match[1]);
  if (number < 1 || number > 13) return null;
  return `${number}${(match[2] ?? '').toLowerCase()}`;
}

/** Day of year (1-366, non-leap reckoning) of an "MM-DD" date. */
export function dayOfYear(monthDay: string): number {
  const [m, d] = monthDay.split('-').map(Number);
  const start = Date.UTC(2001, 0, 1);
  return Math.round((Date.UTC(2001, (m ?? 1) - 1, d ?? 1) - start) / 86_400_000) + 1;
}

function fromDayOfYear(day: number): string {
  const date = new Date(Date.UTC(2001, 0, 1) + (day - 1) * 86_400_000);
  return `${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
}

/**
 * Approximate average last spring and first fall frost for a USDA zone ("7b", or a whole zone "7",
 * which takes the middle of its halves; "10" takes 10a's). Zones 10b and warmer are frost-free.
 * Null for anything that is not a zone. Where the place is known, `frostDatesFor` is truer.
 */
export function frostDatesForZone(zone: string): FrostDates | null {
  const normalized = normalizeZone(zone);
  if (!normalized) return null;
  const number = parseInt(normalized, 10);
  if (number >= 11 || normalized === '10b') return { ...FROST_FREE };
  const halves = /[ab]$/.test(normalized) ? [normalized] : [`${number}a`, `${number}b`];
  const pairs = halves.map((h) => FROST_BY_HALF_ZONE[h]).filter((p): p is readonly [string, string] => !!p);
  if (pairs.length === 0) return null;
  const spring = Math.round(pairs.reduce((sum, p) => sum + dayOfYear(p[0]), 0) / pairs.length);
  const fall = Math.round(pairs.reduce((sum, p) => sum + dayOfYear(p[1]), 0) / pairs.length);
  return {
    lastSpringFrost: fromDayOfYear(spring),
    firstFallFrost: fromDayOfYear(fall),
    growingSeasonDays: fall - spring,
  };
}

/** Frost dates with where they come from. */
export interface PlaceFrostDates extends FrostDates {
  /**
   * "place": the dates of the ZIP's own area; "zone": the zone's average dates; "shifted": the
   * zone's dates moved by what a nearby reference town's own dates differ from its zone's.
   */
  source: 'place' | 'zone' | 'shifted';
  /** For source "place": the area, e.g. "Anchorage", "San Juan metro"; for "shifted": the town. */
  place?: string;
  /** Where cool nights outlast frost by weeks (west of the Cascades): the "MM-DD" warm crops go out. */
  warmCrops?: string;
}

/**
 * The frost dates to tell a gardener. A ZIP of Alaska, Hawaii, Puerto Rico or the Virgin Islands
 * takes its area's own dates (or frost-free): there a zone misleads, as maritime Juneau (6b) has a
 * shorter, cooler season than a 6b garden in Missouri. Elsewhere the zone's dates: the zone given,
 * else the ZIP's; in the dry interior West, the cold North and west of the Cascades (data/frost-*.txt)
 * moved later in spring and earlier in fall, as a nearby town's own dates differ from its zone's. Null when neither tells.
 */
export function frostDatesFor(input: {
  zipCode?: string | null;
  zone?: string | null;
}): PlaceFrostDates | null {
  const area = input.zipCode ? placeAreaForZip(input.zipCode) : null;
  if (area) {
    // "San Juan metro (San Juan, Carolina, ...)": the towns in brackets are for the file's reader.
    const place = area.name.replace(/\s*\([^)]*\)/g, '');
    if (area.frost === 'frost-free') return { ...FROST_FREE, source: 'place', place };
    const [spring, fall] = area.frost;
    return {
      lastSpringFrost: spring,
      firstFallFrost: fall,
      growingSeasonDays: dayOfYear(fall) - dayOfYear(spring),
      source: 'place',
      place,
    };
  }
  const zone = input.zone?.trim() || (input.zipCode ? hardinessZoneForZip(input.zipCode)?.zone : null);
  const dates = zone ? frostDatesForZone(zone) : null;
  if (!dates) return null;
  const shifted = input.zipCode ? townShift(input.zipCode, dates) : null;
  return shifted ?? { ...dates, source: 'zone' };
}

/** Moves a zone's dates by what the ZIP's reference town's own dates differ from its zone's; null elsewhere. */
function townShift(zipCode: string, dates: FrostDates): PlaceFrostDates | null {
  const reference = frostReferenceForZip(zipCode);
  if (!reference || dates.lastSpringFrost === 'frost-free') return null;
  const townZone = hardinessZoneForZip(reference.zip)?.zone;
  const own = townZone ? frostDatesForZone(townZone) : null;
  if (!own || own.lastSpringFrost === 'frost-free') return null;
  const spring =
    dayOfYear(dates.lastSpringFrost) + dayOfYear(reference.frost[0]) - dayOfYear(own.lastSpringFrost);
  const fall =
    dayOfYear(dates.firstFallFrost) + dayOfYear(reference.frost[1]) - dayOfYear(own.firstFallFrost);
  return {
    lastSpringFrost: fromDayOfYear(spring),
    firstFallFrost: fromDayOfYear(fall),
    growingSeasonDays: fall - spring,
    source: 'shifted',
    place: reference.town,
    ...(reference.warmCrops ? { warmCrops: reference.warmCrops } : {}),
  };
}
