import { detectLocation } from '../location/detect-location';
import { frostDatesForZone, normalizeZone, type FrostDates } from '../places/frost';
import { hardinessZoneForZip } from '../places/hardiness';
import { seasonFor, type Season } from '../places/season';
import { lookupZip } from '../places/zip';
import type { ExperienceLevel } from '../processing/profile-commands';
import { normalizeExperienceLevel } from '../processing/profile-commands';
import { addDays, dateInYear, formatDate, formatMonthDay, startOfDay } from '../text/dates';
import type { WeekRange } from './crops';

/** Everything an answer can adapt to. */
export interface AdviceContext {
  /** Lower-cased, whitespace-normalised question. */
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
  season: Season;
  /** The asker's ZIP (given, or texted in the question), even when no zone is known for it. */
  zipCode: string | null;
  /** "Portland, OR" when a ZIP is known. */
  place: string | null;
  state: string | null;
  region: string | null;
  level: ExperienceLevel | null;
}

/** Input of the context builder (the advisor's input without the question parsing). */
export interface AdviceContextInput {
  question: string;
  zipCode?: string | null;
  zone?: string | null;
  region?: string | null;
  experienceLevel?: string | null;
  now?: Date;
}

export function buildContext(input: AdviceContextInput): AdviceContext {
  const today = startOfDay(input.now ?? new Date());
  const detected = detectLocation(input.question);
  const zipCode =
    input.zipCode?.trim() || (detected.locationType === 'zip' ? (detected.zipCode ?? null) : null);
  const place = zipCode ? lookupZip(zipCode) : null;
  const zone =
    (input.zone ? normalizeZone(input.zone) : null) ??
    (zipCode ? (hardinessZoneForZip(zipCode)?.zone ?? null) : null);
  const zoneNumber = zone ? parseInt(zone, 10) : null;
  const frost = zone ? frostDatesForZone(zone) : null;
  const frostFree = !!frost && frost.lastSpringFrost === 'frost-free';
  const year = today.getUTCFullYear();
  return {
    question: input.question
      .toLowerCase()
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/\s+/g, ' ')
      .trim(),
    today,
    zone,
    zipCode,
    zoneNumber,
    frost,
    frostFree,
    lastFrost: frost && !frostFree ? dateInYear(frost.lastSpringFrost, year) : null,
    firstFrost: frost && !frostFree ? dateInYear(frost.firstFallFrost, year) : null,
    season: seasonFor(today, place?.latitude),
    place: place ? `${place.city}, ${place.state}` : null,
    state: place?.state ?? null,
    region: input.region?.trim() || null,
    level: input.experienceLevel ? normalizeExperienceLevel(input.experienceLevel) : null,
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

/** Text for the current season, or ''. */
export function bySeason(ctx: AdviceContext, texts: Partial<Record<Season, string>>): string {
  return texts[ctx.season] ?? '';
}

/** Appends sentences in order while the whole stays within `max` characters. */
export function compose(max: number, ...sentences: Array<string | null | undefined | false>): string {
  let out = '';
  for (const sentence of sentences) {
    if (!sentence) continue;
    const next = out === '' ? sentence : `${out} ${sentence}`;
    if (next.length <= max) out = next;
  }
  return out;
}

/** Asks for what would give dates when the zone is unknown; never for a ZIP the asker has given. */
export function zipHint(ctx: AdviceContext): string | null {
  if (ctx.zone) return null;
  return ctx.zipCode
    ? 'Text your USDA zone (e.g. ZONE 7b) for dates in your area.'
    : 'Text your ZIP (e.g. ZIP 98101) for dates in your area.';
}
