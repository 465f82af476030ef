import { detectLocation, type LocationDetection } from '../location/detect-location';
import { frostDatesFor, normalizeZone, type FrostDates } from '../places/frost';
import { hardinessZoneForZip } from '../places/hardiness';
import { NAMED_REGIONS } from '../places/regions';
import { seasonFor, type Season } from '../places/season';
import { normalizeState, regionForState } from '../places/states';
import { lookupZip } from '../places/zip';
import type { ExperienceLevel, SoilType } from '../processing/profile-commands';
import { normalizeExperienceLevel, normalizeSoilType } from '../processing/profile-commands';
import {
  addDays,
  dateInYear,
  formatDate,
  formatMonthDay,
  monthSpan,
  partOfMonth,
  startOfDay,
} from '../text/dates';
import { ADVISOR_REGIONS, type AdvisorRegion } from './knowledge/schema';
import { normalizeText } from './knowledge/terms';
import type { WeekRange } from './knowledge/types';

/** Everything an answer can adapt to. */
export interface AdviceContext {
  /** The question normalised for matching (lower case, no apostrophes, punctuation as spaces). */
  question: string;
  /** Midnight (UTC) of the day asked. */
  today: Date;
  zone: string | null;
  /** Whole zone number (8 for "8b"). */
  zoneNumber: number | null;
  frost: FrostDates | null;
  /** Zone 11+ (or tropical): no frost dates apply. */
  frostFree: boolean;
  /** This year's average last spring and first fall frost, when the zone has them. */
  lastFrost: Date | null;
  firstFrost: Date | null;
  /** Where cool nights outlast frost by weeks: this year's date warm crops go out, else null. */
  warmCrops: Date | null;
  season: Season;
  /** The asker's ZIP (given, or texted in the question), even when no zone is known for it. */
  zipCode: string | null;
  /** "Portland, OR" when a ZIP is known. */
  place: string | null;
  state: string | null;
  /** The region as given (a named region like "Front Range", or a broad one). */
  region: string | null;
  /** The broad region answers vary by ("Southwest", "Pacific Northwest"...). */
  regionName: AdvisorRegion | null;
  level: ExperienceLevel | null;
  soil: SoilType | null;
  /** Whether an answer may ask for a ZIP (unknown zone, not refused, not already asked). */
  mayAskZip: boolean;
}

/** A question and what is known about the asker. */
export interface AdviceAsker {
  question: string;
  zipCode?: string | null;
  /** USDA zone ("7b"); takes precedence over the zone of `zipCode`. */
  zone?: string | null;
  /** A region as people name it ("Pacific Northwest", "Front Range"); a ZIP's state wins. */
  region?: string | null;
  experienceLevel?: string | null;
  soilType?: string | null;
  /** The date to answer for (planting windows, season); default now. */
  now?: Date;
}

/** Input of the context builder (the advisor's input without the question parsing). */
export interface AdviceContextInput extends AdviceAsker {
  /** Never ask for a ZIP (refused, or asked earlier in the conversation). */
  noZipHint?: boolean;
  /** The question is already normalised (normalizeText). */
  normalized?: boolean;
  /** The place the gardener's words name ("my mom's lawn in tucson"), read from the raw text. */
  named?: LocationDetection;
}

/**
 * The place an answer is for when the gardener names one away from home: a town in another zone
 * than the ZIP's, a state other than the ZIP's, or any named place when no ZIP is known.
 */
function placeElsewhere(
  named: LocationDetection | undefined,
  home: string | null,
): { zipCode: string | null; state: string | null; region: string | null } | null {
  if (!named?.hasLocation || named.country !== 'United States') return null;
  const state = named.state ?? null;
  const at = home ? lookupZip(home) : null;
  const homeState = at?.state ?? null;
  if (named.zipCode) {
    // The home town itself ("tomatoes in chicago" from a Chicago ZIP) keeps the gardener's own ZIP.
    if (at && named.city?.toLowerCase() === at.city.toLowerCase() && state === homeState) return null;
    const sameZone = home && hardinessZoneForZip(home)?.zone === hardinessZoneForZip(named.zipCode)?.zone;
    return sameZone && state === homeState ? null : { zipCode: named.zipCode, state, region: null };
  }
  if (homeState && (!state || state === homeState)) return null;
  const region = named.region ?? null;
  return state || region ? { zipCode: null, state, region } : null;
}

/** The broad region of a state or of a region as people name it ("Front Range", "PNW", "Texas"). */
export function advisorRegionOf(state: string | null, region: string | null): AdvisorRegion | null {
  if (state) return regionForState(state);
  const r = region?.trim().toLowerCase();
  if (!r) return null;
  const broad = ADVISOR_REGIONS.find((name) => name.toLowerCase() === r);
  if (broad) return broad;
  const named = NAMED_REGIONS.find((n) => n.name.toLowerCase() === r);
  if (named) {
    // The region most of its states belong to ("High Desert" spans OR, NV, CA, NM, AZ, UT: Southwest).
    const votes = new Map<AdvisorRegion, number>();
    for (const s of named.states) {
      const broadOf = regionForState(s);
      if (broadOf) votes.set(broadOf, (votes.get(broadOf) ?? 0) + 1);
    }
    return [...votes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  }
  const code = normalizeState(r);
  if (code) return regionForState(code);
  const zip = /^\d{5}$/.test(r) ? lookupZip(r) : null;
  return zip ? regionForState(zip.state) : null;
}

/**
 * Alaska's soil and nights stay cold after its last frost: warm crops go out in early June (as the
 * state's extension service advises for Southcentral and the Interior), or 10 days after a later frost.
 */
function alaskaWarmCrops(lastFrost: Date): Date {
  const june = new Date(Date.UTC(lastFrost.getUTCFullYear(), 5, 1));
  const afterFrost = addDays(lastFrost, 10);
  return afterFrost > june ? afterFrost : june;
}

export function buildContext(input: AdviceContextInput): AdviceContext {
  const today = startOfDay(input.now ?? new Date());
  // A ZIP texted in the question counts as given (only looked for when none is known: it is costly).
  const detected =
    input.zipCode?.trim() || !/\d{5}/.test(input.question) ? null : detectLocation(input.question);
  const home =
    input.zipCode?.trim() || (detected?.locationType === 'zip' ? (detected.zipCode ?? null) : null);
  const elsewhere = placeElsewhere(input.named, home);
  // Away from a known home: the profile's zone and a request for a ZIP are for home.
  const away = elsewhere !== null && home !== null;
  const zipCode = elsewhere ? elsewhere.zipCode : home;
  const place = zipCode ? lookupZip(zipCode) : null;
  const zone =
    (input.zone && !away ? normalizeZone(input.zone) : null) ??
    (zipCode ? (hardinessZoneForZip(zipCode)?.zone ?? null) : null);
  const zoneNumber = zone ? parseInt(zone, 10) : null;
  // An Alaska, Hawaii or Puerto Rico ZIP takes its own area's dates: there the zone misleads.
  const frost = zone ? frostDatesFor({ zipCode, zone }) : null;
  const frostFree = !!frost && frost.lastSpringFrost === 'frost-free';
  const year = today.getUTCFullYear();
  return {
    question: input.normalized ? input.question : normalizeText(input.question),
    today,
    zone,
    zipCode,
    zoneNumber,
    frost,
    frostFree,
    lastFrost: frost && !frostFree ? dateInYear(frost.lastSpringFrost, year) : null,
    firstFrost: frost && !frostFree ? dateInYear(frost.firstFallFrost, year) : null,
    warmCrops: frost?.warmCrops
      ? dateInYear(frost.warmCrops, year)
      : place?.state === 'AK' && frost && !frostFree
        ? alaskaWarmCrops(dateInYear(frost.lastSpringFrost, year))
        : null,
    season: seasonFor(today, place?.latitude),
    place: place ? `${place.city}, ${place.state}` : null,
    state: place?.state ?? elsewhere?.state ?? null,
    region: elsewhere ? elsewhere.region : input.region?.trim() || null,
    regionName: elsewhere
      ? advisorRegionOf(place?.state ?? elsewhere.state, elsewhere.region)
      : advisorRegionOf(place?.state ?? null, input.region ?? null),
    level: input.experienceLevel ? normalizeExperienceLevel(input.experienceLevel) : null,
    soil: input.soilType ? normalizeSoilType(input.soilType) : null,
    mayAskZip: !zone && !input.noZipHint && !away,
  };
}

/** "Mar 29-Apr 12", "Oct 1-4" (one date when both are the same day). */
export function dateRange(from: Date, to: Date): string {
  const a = formatDate(from);
  const b = formatDate(to);
  if (a === b) return a;
  return from.getUTCMonth() === to.getUTCMonth() && from.getUTCFullYear() === to.getUTCFullYear()
    ? `${a}-${to.getUTCDate()}`
    : `${a}-${b}`;
}

/** "Apr 17-May 1 (mid-April to early May)": the dates, and the parts of months gardeners plan by. */
export function datesInMonths(from: Date, to: Date): string {
  return `${dateRange(from, to)} (${monthSpan(from, to)})`;
}

/** "Jun 5 (early June)". */
export function dateInMonth(date: Date): string {
  return `${formatDate(date)} (${partOfMonth(date)})`;
}

/** The window `weeks` around a reference date. */
export function windowAround(reference: Date, weeks: WeekRange): { from: Date; to: Date } {
  return { from: addDays(reference, weeks[0] * 7), to: addDays(reference, weeks[1] * 7) };
}

/** "1-3 weeks after", "2-4 weeks before", "up to 2 weeks before", "2 weeks before to 1 week after". */
export function weeksPhrase(weeks: WeekRange): string {
  const [a, b] = weeks;
  const unit = (n: number): string => (Math.abs(n) === 1 ? 'week' : 'weeks');
  if (a >= 0 && b >= 0) return a === 0 ? `up to ${b} ${unit(b)} after` : `${a}-${b} ${unit(b)} after`;
  if (a < 0 && b <= 0) {
    return b === 0 ? `up to ${-a} ${unit(a)} before` : `${-b}-${-a} weeks before`;
  }
  return `${-a} ${unit(a)} before to ${b} ${unit(b)} after`;
}

/** "zone 8b (last frost ~Mar 14)" or "zone 11 (frost-free)". */
export function zoneWithFrost(ctx: AdviceContext, which: 'spring' | 'fall' | 'both' = 'spring'): string {
  if (!ctx.zone) return 'your area';
  if (!ctx.frost || ctx.frostFree) return `zone ${ctx.zone} (frost-free)`;
  const spring = `last frost ~${formatMonthDay(ctx.frost.lastSpringFrost)}`;
  const fall = `first frost ~${formatMonthDay(ctx.frost.firstFallFrost)}`;
  const text = which === 'spring' ? spring : which === 'fall' ? fall : `${spring}, ${fall}`;
  return `zone ${ctx.zone} (${text})`;
}

/** Text for the asker's experience level, or the default. */
export function byLevel(
  ctx: AdviceContext,
  texts: { beginner?: string; advanced?: string; other?: string },
): string {
  if (ctx.level === 'beginner' && texts.beginner !== undefined) return texts.beginner;
  if (ctx.level === 'advanced' && texts.advanced !== undefined) return texts.advanced;
  return texts.other ?? '';
}

/** Appends sentences in order while the whole stays within `max` characters; the first always goes in. */
export function compose(max: number, ...sentences: Array<string | null | undefined | false>): string {
  let out = '';
  for (const sentence of sentences) {
    if (!sentence) continue;
    const next = out === '' ? sentence : `${out} ${sentence}`;
    if (out === '' || next.length <= max) out = next;
  }
  return out;
}

/**
 * Asks for what would give dates when the zone is unknown; never for a ZIP the asker has given, and
 * not at all after a refusal or when the conversation already asked.
 */
export function zipHint(ctx: AdviceContext): string | null {
  if (ctx.zone || !ctx.mayAskZip) return null;
  return ctx.zipCode
    ? 'Text your USDA zone (e.g. ZONE 7b) for dates in your area.'
    : 'Text your ZIP (e.g. ZIP 98101) for dates in your area.';
}
