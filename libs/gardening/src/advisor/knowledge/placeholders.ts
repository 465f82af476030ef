import { stateName } from '../../places/states';
import { addDays, monthSpan } from '../../text/dates';
import { dateRange, datesInMonths, type AdviceContext } from '../context';
import type { Crop, Plant } from './types';
import type { RegionalOptionData } from './schema';

/**
 * Placeholders in answer texts, filled from what is known about the gardener (ADVISOR.md lists
 * them). A part whose placeholder cannot be filled (no zone yet, frost-free, no crop) is left out.
 */
const SIMPLE = ['zone', 'place', 'state', 'region', 'season', 'soil', 'level', 'frostDays'] as const;
const CROP_FIELDS = [
  'name',
  'singular',
  'tip',
  'harvest',
  'spacing',
  'water',
  'container',
  'feed',
  'pests',
  'condition',
  'warmZones',
  'harvestDates',
] as const;
/** `|cap` capitalises; `|months` gives a date as parts of months only ("late August"). */
const MODIFIERS = /\|(?:cap|months)$/;
const DATE = /^(lastFrost|firstFrost)(?:([+-]\d{1,3})([wd]))?(?:\.\.([+-]\d{1,3})([wd]))?$/;
const LIST = /^(plants|natives):([a-z0-9-]+(?:\+[a-z0-9-]+)*)(?::(\d{1,2}))?(:pot)?$/;
const PLACEHOLDER = /\{([^{}]*)\}/g;
const REGIONAL = 'regional:';

/** Problems with the placeholders of a text (unknown names, plant tags or regional lists, stray braces). */
export function checkPlaceholders(
  text: string,
  plantTags: ReadonlySet<string>,
  regionalLists: ReadonlySet<string> = new Set(),
): string[] {
  const problems: string[] = [];
  if (/[{}]/.test(text.replace(PLACEHOLDER, ''))) problems.push(`unbalanced braces in "${text}"`);
  for (const [, raw = ''] of text.matchAll(PLACEHOLDER)) {
    const name = raw.replace(MODIFIERS, '');
    if ((SIMPLE as readonly string[]).includes(name) || DATE.test(name)) continue;
    if (name.startsWith(REGIONAL)) {
      if (!regionalLists.has(name.slice(REGIONAL.length))) problems.push(`no regional list "${name}"`);
      continue;
    }
    if (name.startsWith('crop.') && (CROP_FIELDS as readonly string[]).includes(name.slice(5))) continue;
    const list = LIST.exec(name);
    if (list) {
      for (const tag of (list[2] ?? '').split('+')) {
        if (!plantTags.has(tag)) problems.push(`no plant has the tag "${tag}" ({${raw}})`);
      }
      continue;
    }
    problems.push(`unknown placeholder {${raw}}`);
  }
  return problems;
}

/** What placeholders are filled from. */
export interface FillInput {
  ctx: AdviceContext;
  crop: Crop | null;
  plants: readonly Plant[];
  /** regional.json's lists. */
  regional?: ReadonlyMap<string, readonly RegionalOptionData[]>;
}

/** The first option of a regional list that fits the gardener's region and zone, or null. */
function regionalText(
  options: readonly RegionalOptionData[] | undefined,
  ctx: Pick<AdviceContext, 'regionName' | 'zoneNumber'>,
): string | null {
  for (const o of options ?? []) {
    if (o.region && (ctx.regionName === null || !o.region.includes(ctx.regionName))) continue;
    if (o.zoneMin !== undefined && (ctx.zoneNumber === null || ctx.zoneNumber < o.zoneMin)) continue;
    if (o.zoneMax !== undefined && (ctx.zoneNumber === null || ctx.zoneNumber > o.zoneMax)) continue;
    return o.text;
  }
  return null;
}

const offsetDays = (n: string | undefined, unit: string | undefined): number =>
  n === undefined ? 0 : Number(n) * (unit === 'w' ? 7 : 1);

const nextYear = (d: Date): Date =>
  new Date(Date.UTC(d.getUTCFullYear() + 1, d.getUTCMonth(), d.getUTCDate()));

/**
 * A date (or range) from a frost date, this year's or, once past, next year's; a range also in
 * parts of months, and only those with `months`.
 */
function frostDate(ctx: AdviceContext, match: RegExpExecArray, months: boolean): string | null {
  const base = match[1] === 'lastFrost' ? ctx.lastFrost : ctx.firstFrost;
  if (!base) return null;
  let from = addDays(base, offsetDays(match[2], match[3]));
  let to = match[4] === undefined ? from : addDays(base, offsetDays(match[4], match[5]));
  if (to < ctx.today) {
    from = nextYear(from);
    to = nextYear(to);
  }
  if (months) return monthSpan(from, to);
  // A single date is often in brackets already ("(~Mar 14)"): it stays short.
  return match[4] === undefined ? dateRange(from, to) : datesInMonths(from, to);
}

/**
 * Whether a plant survives winter in a zone (unknown zone: only plants hardy across zones 5-8). In
 * a pot (`inPot`) roots get colder, so the plant must be hardy two zones colder.
 */
export function isHardyIn(plant: Pick<Plant, 'zones'>, zoneNumber: number | null, inPot = false): boolean {
  if (!plant.zones) return true;
  if (zoneNumber === null) return plant.zones[0] <= (inPot ? 3 : 5) && plant.zones[1] >= 8;
  return plant.zones[0] <= zoneNumber - (inPot ? 2 : 0) && zoneNumber <= plant.zones[1];
}

/** "a, b, c and d". */
function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

function plantList(input: FillInput, match: RegExpExecArray): string | null {
  const natives = match[1] === 'natives';
  const tags = (match[2] ?? '').split('+');
  const count = match[3] ? Number(match[3]) : 5;
  const region = input.ctx.regionName;
  if (natives && !region) return null;
  const names = input.plants
    .filter(
      (p) =>
        tags.every((t) => p.tags.includes(t)) &&
        isHardyIn(p, input.ctx.zoneNumber, match[4] !== undefined) &&
        (!natives || (region !== null && (p.native ?? []).includes(region))),
    )
    .slice(0, count)
    .map((p) => p.name);
  return names.length >= 2 ? joinNames(names) : null;
}

/** The first harvest window of a crop planted on time, from the frost dates. */
function harvestDates(ctx: AdviceContext, crop: Crop): string | null {
  if (!ctx.lastFrost || !ctx.firstFrost) return null;
  const window = (base: Date, weeks: readonly [number, number], days: readonly [number, number]) => ({
    from: addDays(base, weeks[0] * 7 + days[0]),
    to: addDays(base, weeks[1] * 7 + days[1]),
  });
  let w: { from: Date; to: Date } | null = null;
  if (crop.harvestWeeks) w = window(ctx.lastFrost, crop.harvestWeeks, [0, 0]);
  else if (crop.spring) {
    w = window(ctx.lastFrost, crop.spring, crop.maturity);
    if (crop.fall && w.to < ctx.today) w = window(ctx.firstFrost, crop.fall, crop.maturity);
  } else if (crop.fall) w = window(ctx.firstFrost, crop.fall, crop.maturity);
  if (!w || crop.maturity[0] > 365) return null;
  if (w.to < ctx.today) w = { from: nextYear(w.from), to: nextYear(w.to) };
  return datesInMonths(w.from, w.to);
}

function fillOne(name: string, input: FillInput, months = false): string | null {
  const { ctx, crop } = input;
  switch (name) {
    case 'zone':
      return ctx.zone;
    case 'place':
      return ctx.place;
    case 'state':
      return ctx.state ? (stateName(ctx.state) ?? ctx.state) : null;
    case 'region':
      return ctx.regionName;
    case 'season':
      return ctx.season;
    case 'soil':
      return ctx.soil;
    case 'level':
      return ctx.level;
    case 'frostDays':
      return ctx.frost && !ctx.frostFree ? String(ctx.frost.growingSeasonDays) : null;
  }
  if (name.startsWith(REGIONAL)) return regionalText(input.regional?.get(name.slice(REGIONAL.length)), ctx);
  if (name.startsWith('crop.')) {
    if (!crop) return null;
    const field = name.slice(5);
    if (field === 'harvestDates') return harvestDates(ctx, crop);
    const value = crop[field as Exclude<(typeof CROP_FIELDS)[number], 'harvestDates'>];
    return typeof value === 'string' ? value : null;
  }
  const date = DATE.exec(name);
  if (date) return frostDate(ctx, date, months);
  const list = LIST.exec(name);
  if (list) return plantList(input, list);
  return null;
}

/** The text with every placeholder filled, or null when one cannot be. */
export function fillPlaceholders(text: string, input: FillInput): string | null {
  let missing = false;
  const out = text.replace(PLACEHOLDER, (_, raw: string) => {
    const cap = raw.endsWith('|cap');
    const value = fillOne(raw.replace(MODIFIERS, ''), input, raw.endsWith('|months'));
    if (value === null || value === '') {
      missing = true;
      return '';
    }
    return cap ? value.charAt(0).toUpperCase() + value.slice(1) : value;
  });
  return missing ? null : out;
}
