import type { CalendarTipPreview } from '@sprout/contracts';
import { CROPS, type CropTiming, findCrop } from '../advisor/crops';
import { normalizeText } from '../advisor/knowledge/terms';
import { frostDatesFor } from '../places/frost';
import { hardinessZoneForZip } from '../places/hardiness';
import { type StateRegion, regionForState } from '../places/states';
import { lookupZip } from '../places/zip';
import { formatMonthDay } from '../text/dates';
import { fitToLength, gsm7Length, toGsm7 } from '../text/gsm7';
import { addDaysToDate, localDateOf, timeZoneForZip } from './time-zone';

/** One dated task for a gardener: what the calendar sends, keyed so it is sent once (the console previews it). */
export type CalendarTip = CalendarTipPreview;

export interface CalendarTipsInput {
  zipCode: string;
  /** Crops the gardener talked about (any spelling findCrop reads); none: the region's default set. */
  crops?: readonly string[];
  /** Tips dated from this instant's local date... */
  from: Date;
  /** ...to this instant's local date, both included. */
  until: Date;
}

/** The line every tip ends with. */
export const TIPS_STOP_LINE = 'Reply TIPS OFF to stop tips';
/** Two GSM-7 segments of a concatenated SMS (153 septets each). */
export const TIP_MAX_SEPTETS = 306;
const PREFIX = 'Sprout: ';

/** Crops a gardener gets tips for when they have named none: what most grow there. */
const DEFAULT_CROPS: Readonly<Record<StateRegion, readonly string[]>> = {
  'Pacific Northwest': ['tomatoes', 'lettuce', 'peas', 'kale', 'garlic'],
  California: ['tomatoes', 'peppers', 'lettuce', 'basil', 'garlic'],
  Southwest: ['tomatoes', 'peppers', 'lettuce', 'okra', 'garlic'],
  'Mountain West': ['tomatoes', 'lettuce', 'peas', 'potatoes', 'garlic'],
  'South Central': ['tomatoes', 'peppers', 'okra', 'lettuce', 'garlic'],
  Midwest: ['tomatoes', 'peppers', 'lettuce', 'peas', 'garlic'],
  Northeast: ['tomatoes', 'lettuce', 'peas', 'kale', 'garlic'],
  'Mid-Atlantic': ['tomatoes', 'peppers', 'lettuce', 'peas', 'garlic'],
  Southeast: ['tomatoes', 'peppers', 'okra', 'lettuce', 'sweet potatoes'],
  Alaska: ['lettuce', 'peas', 'potatoes', 'kale', 'broccoli'],
  Hawaii: ['tomatoes', 'peppers', 'lettuce', 'sweet potatoes'],
  Caribbean: ['tomatoes', 'peppers', 'lettuce', 'okra', 'sweet potatoes'],
  'Pacific Islands': ['tomatoes', 'peppers', 'lettuce', 'sweet potatoes'],
};

/** Regions whose summers stress plants (highs past 95F are common) from zone 8 up. */
const HOT_REGIONS: ReadonlySet<StateRegion> = new Set([
  'Southwest',
  'South Central',
  'Southeast',
  'California',
  'Caribbean',
]);

/** Warm crops that want real heat: in frost-free places sown in spring, not in the cool months. */
const HEAT_LOVERS = new Set(['okra', 'sweet potatoes', 'melons', 'pumpkins', 'sweet corn']);

interface Place {
  zone: string | null;
  zoneNumber: number;
  region: StateRegion | null;
  /** Where the gardener is, for the text ("Portland"). */
  name: string;
  frost: { lastSpring: string; firstFall: string; warmCrops?: string } | null;
}

const placeOf = (zipCode: string): Place | null => {
  const zip = lookupZip(zipCode);
  if (zip === null) return null;
  const zone = hardinessZoneForZip(zip.zip)?.zone ?? null;
  const dates = frostDatesFor({ zipCode: zip.zip, zone });
  const frost =
    dates === null || dates.lastSpringFrost === 'frost-free'
      ? null
      : {
          lastSpring: dates.lastSpringFrost,
          firstFall: dates.firstFallFrost,
          ...(dates.warmCrops ? { warmCrops: dates.warmCrops } : {}),
        };
  // Without any frost data the place cannot be timed; a known frost-free one can.
  if (frost === null && dates === null) return null;
  return {
    zone,
    zoneNumber: zone === null ? 0 : parseInt(zone, 10),
    region: regionForState(zip.state),
    name: zip.city.replace(/\b\w/g, (c) => c.toUpperCase()).replace(/\B\w+/g, (w) => w.toLowerCase()),
    frost,
  };
};

/** The crops to plan: those named (in the order given, once each), else the region's defaults. */
const cropsFor = (names: readonly string[] | undefined, region: StateRegion | null): CropTiming[] => {
  const chosen: CropTiming[] = [];
  for (const name of names ?? []) {
    const crop = CROPS.find((c) => c.name === name) ?? findCrop(name);
    if (crop && !chosen.includes(crop)) chosen.push(crop);
  }
  if (chosen.length > 0) return chosen;
  const defaults = DEFAULT_CROPS[region ?? 'Midwest'];
  return defaults.map((n) => CROPS.find((c) => c.name === n)).filter((c): c is CropTiming => c !== undefined);
};

/** A task before it is dated into a text. */
interface Task {
  crop: CropTiming | null;
  task: string;
  date: string;
  season: number;
  body: string;
}

const shift = (year: number, monthDay: string, weeks: number): string =>
  addDaysToDate(`${year}-${monthDay}`, weeks * 7);

const weeksPhrase = (weeks: number, reference: string): string => {
  const n = Math.abs(weeks);
  if (n === 0) return `around your ${reference}`;
  return `${n} week${n === 1 ? '' : 's'} ${weeks < 0 ? 'before' : 'after'} your ${reference}`;
};

const sowsOutdoors = (crop: CropTiming): boolean => crop.method === 'seed';

/** Frost-dated tasks of one crop in one season (the year whose frost dates they hang on). */
const frostTasks = (
  crop: CropTiming,
  year: number,
  place: Place,
  frost: NonNullable<Place['frost']>,
): Task[] => {
  const tasks: Task[] = [];
  const last = `last frost (about ${formatMonthDay(frost.lastSpring)})`;
  const first = `first fall frost (about ${formatMonthDay(frost.firstFall)})`;
  const add = (task: string, date: string, body: string) =>
    tasks.push({ crop, task, date, season: year, body });
  if (crop.name === 'garlic') {
    if (crop.fall) {
      add(
        'plant-garlic',
        shift(year, frost.firstFall, crop.fall[0]),
        `Plant garlic now: cloves pointy end up, 2 in deep and 6 in apart, then mulch. It roots before the ground freezes and is ready next summer.`,
      );
    }
    return tasks;
  }
  if (crop.method === 'bulbs') {
    if (crop.fall) {
      add(
        'plant-bulbs',
        shift(year, frost.firstFall, crop.fall[0]),
        `Time to plant tulips and other spring bulbs, ${weeksPhrase(crop.fall[0], first)}: 3 times as deep as the bulb is tall, pointy end up.`,
      );
    }
    return tasks;
  }
  // Where nights stay cool long after frost, warm crops go out when they warm, not weeks after frost.
  const frostOut = crop.spring ? shift(year, frost.lastSpring, crop.spring[0]) : null;
  const warmOut =
    crop.warm && frost.warmCrops && frostOut && `${year}-${frost.warmCrops}` > frostOut
      ? `${year}-${frost.warmCrops}`
      : null;
  if (crop.indoor && crop.spring) {
    add(
      'start-indoors',
      warmOut
        ? addDaysToDate(warmOut, (crop.indoor[0] - crop.spring[0]) * 7)
        : shift(year, frost.lastSpring, crop.indoor[0]),
      `Time to start ${crop.singular} seeds indoors in ${place.name}, ${warmOut ? `${Math.abs(crop.indoor[0] - crop.spring[0])} weeks before planting out` : weeksPhrase(crop.indoor[0], last)}. Sow 1/4 in deep in a warm, bright spot.`,
    );
  }
  if (crop.spring) {
    const out = warmOut ?? shift(year, frost.lastSpring, crop.spring[0]);
    if (crop.indoor) {
      add(
        'harden-off',
        addDaysToDate(out, -7),
        `Start hardening off your ${crop.singular} seedlings: a few hours outdoors in shade, a little longer and sunnier each day, for a week before planting out.`,
      );
    }
    const when = warmOut
      ? `now that nights are warming here, weeks after your ${last}`
      : weeksPhrase(crop.spring[0], last);
    if (crop.method === 'transplants' || (crop.method === 'plants' && crop.indoor)) {
      add(
        'transplant',
        out,
        `Time to plant your ${crop.singular} seedlings out, ${when}, ${crop.condition}. ${crop.tip}`,
      );
    } else if (sowsOutdoors(crop)) {
      add(
        'sow',
        out,
        `Time to sow ${crop.name} outdoors in ${place.name}, ${when}, ${crop.condition}. ${crop.tip}`,
      );
    } else {
      add(
        'plant',
        out,
        `Time to plant ${crop.name} (${crop.method}), ${when}, ${crop.condition}. ${crop.tip}`,
      );
    }
  }
  if (crop.fall) {
    const when = weeksPhrase(crop.fall[0], first);
    if (sowsOutdoors(crop)) {
      add(
        'sow-fall',
        shift(year, frost.firstFall, crop.fall[0]),
        `Time to sow ${crop.name} for a fall crop, ${when}. Keep the seedbed moist while it is hot.`,
      );
    } else {
      add(
        'plant-fall',
        shift(year, frost.firstFall, crop.fall[0]),
        `Time to set out ${crop.singular} for a fall crop, ${when}. Shade young plants from afternoon sun for a few days.`,
      );
    }
  }
  return tasks;
};

/**
 * Tasks where it never freezes (Hawaii, Puerto Rico, South Florida, coastal southern California):
 * by season, not frost. The cool, dry months suit tomatoes and greens; summer heat and rain do not.
 */
const frostFreeTasks = (crop: CropTiming, year: number): Task[] => {
  const tasks: Task[] = [];
  const add = (task: string, monthDay: string, body: string) =>
    tasks.push({ crop, task, date: `${year}-${monthDay}`, season: year, body });
  if (crop.name === 'garlic' || crop.method === 'bulbs') return tasks; // they need winter chill
  if (crop.warm && HEAT_LOVERS.has(crop.name)) {
    add(
      'sow',
      '04-15',
      `Warm soil is here: plant ${crop.name} now; they thrive in the heat and rain of summer.`,
    );
  } else if (crop.warm) {
    const verb = crop.method === 'seed' ? 'sow' : 'plant';
    add(
      crop.method === 'seed' ? 'sow' : 'transplant',
      '01-15',
      `The cool, dry months are prime time: ${verb} ${crop.name} now so they fruit before summer heat (over 90F) stops fruit set.`,
    );
    add(
      crop.method === 'seed' ? 'sow-fall' : 'plant-fall',
      '08-20',
      `Second season: ${verb} ${crop.name} from late Aug to Sep for a crop through the mild winter.`,
    );
  } else {
    add(
      crop.method === 'seed' ? 'sow-fall' : 'plant-fall',
      '10-15',
      `The cool season is starting: ${crop.method === 'seed' ? 'sow' : 'plant'} ${crop.name} from now to Jan; summer heat makes them bolt or go bitter.`,
    );
  }
  return tasks;
};

/** The garden-wide heat task of hot places, before the first heat wave. */
const heatTask = (place: Place, year: number): Task | null => {
  if (place.zoneNumber < 8 || place.region === null || !HOT_REGIONS.has(place.region)) return null;
  return {
    crop: null,
    task: 'protect-from-heat',
    date: `${year}-${place.zoneNumber >= 9 ? '06-01' : '06-15'}`,
    season: year,
    body: 'Heat is coming: water deeply in the early morning, mulch 2-3 in, and put 30-50% shade cloth over tomatoes, peppers and greens when highs pass 95F.',
  };
};

/** The SMS of a task: the prefix, the body cut to fit, the stop line; GSM-7, two segments at most. */
export const tipText = (body: string): string => {
  const tail = `\n${TIPS_STOP_LINE}`;
  const clean = toGsm7(body).replace(/~/g, 'about ');
  let room = TIP_MAX_SEPTETS - gsm7Length(PREFIX) - gsm7Length(tail);
  let fitted = fitToLength(clean, room);
  // fitToLength counts characters; an extension-table character costs two septets.
  while (gsm7Length(fitted) > room) fitted = fitToLength(clean, --room);
  return `${PREFIX}${fitted}${tail}`;
};

/**
 * The dated tips for a ZIP between two instants (their local dates, both included), earliest
 * first: from the place's frost dates (or, where it never freezes, its seasons), its region and
 * zone, and the crops named (or the region's defaults). Empty for a ZIP that is not known.
 */
export function calendarTipsFor(input: CalendarTipsInput): CalendarTip[] {
  const place = placeOf(input.zipCode);
  const timeZone = timeZoneForZip(input.zipCode);
  if (place === null || timeZone === null) return [];
  const from = localDateOf(input.from, timeZone);
  const until = localDateOf(input.until, timeZone);
  if (until < from) return [];
  const crops = cropsFor(input.crops, place.region);
  const tasks: Task[] = [];
  // A season's tasks can fall in the year before (indoor starts) or after: look one year around.
  for (let year = Number(from.slice(0, 4)) - 1; year <= Number(until.slice(0, 4)) + 1; year++) {
    for (const crop of crops) {
      tasks.push(...(place.frost ? frostTasks(crop, year, place, place.frost) : frostFreeTasks(crop, year)));
    }
    const heat = heatTask(place, year);
    if (heat) tasks.push(heat);
  }
  return tasks
    .filter((t) => t.date >= from && t.date <= until)
    .sort((a, b) => a.date.localeCompare(b.date) || (a.crop?.name ?? '').localeCompare(b.crop?.name ?? ''))
    .map((t) => ({
      key: `${t.crop?.name ?? 'garden'}:${t.task}:${t.season}`,
      kind: 'tip' as const,
      crop: t.crop?.name ?? null,
      task: t.task,
      date: t.date,
      text: tipText(t.body),
    }));
}

/** The crops named in a gardener's texts (crops.json names), in the order first met. */
export function cropsNamedIn(texts: readonly string[]): string[] {
  const names: string[] = [];
  for (const text of texts) {
    const normalized = normalizeText(text);
    for (const crop of CROPS) {
      if (!names.includes(crop.name) && crop.pattern.test(normalized)) names.push(crop.name);
    }
  }
  return names;
}
