import { addDays, formatDate, partOfMonth } from '../text/dates';
import {
  byLevel,
  compose,
  dateInMonth,
  dateRange,
  datesInMonths,
  weeksPhrase,
  windowAround,
  zipHint,
  zoneWithFrost,
  type AdviceContext,
} from './context';
import { CROPS, type CropTiming } from './crops';
import { TWO_SEGMENTS } from './knowledge/render';

const MAX = TWO_SEGMENTS;
/** A cool-season crop sown this many days after its spring weeks still makes a crop before the heat. */
const COOL_GRACE_DAYS = 21;
/** A warm crop set out this many days after its best weeks still has a full season ahead. */
const STILL_SPRING_DAYS = 35;
/** From this zone, a crop's warm-zone months replace frost-date windows. */
const WARM_FROM = 10;
/** Warm crops grow slower as fall days shorten and cool: extra days on top of days to harvest. */
const FALL_SLOWDOWN_DAYS = 14;
/** A fall crop of a warm crop should have this long to ripen and be picked before frost. */
const FALL_PICKING_DAYS = 28;
/** Width of a warm crop's fall window. */
const WARM_FALL_WINDOW_DAYS = 28;
/** A warm crop gets a fall window only where it opens this long after spring's closes (a real second season). */
const SECOND_SEASON_GAP_DAYS = 42;
/** Where humid or desert summer heat stops fruit set, so a warm crop's second season is in fall. */
const HOT_SUMMER_REGIONS: ReadonlySet<string> = new Set(['Southeast', 'South Central', 'Southwest']);
const TOO_EARLY = /\btoo (?:early|soon)\b|\byet\b/;
const DAY = 86_400_000;

export const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** How the crop goes in: "plant tomato transplants", "sow carrots", "plant garlic cloves". */
function plantVerb(crop: CropTiming): string {
  switch (crop.method) {
    case 'transplants':
      return `set out ${crop.singular} transplants`;
    case 'seed':
      return `sow ${crop.name}`;
    case 'sets':
      return `plant ${crop.singular} sets`;
    case 'seed potatoes':
      return 'plant seed potatoes';
    case 'slips':
      return `plant ${crop.singular} slips`;
    case 'crowns':
      return `plant ${crop.singular} crowns`;
    case 'cloves':
      return `plant ${crop.singular} cloves`;
    case 'bulbs':
      return `plant ${crop.name}`;
    case 'plants':
      return `plant ${crop.name}`;
  }
}

interface Windows {
  indoor: { from: Date; to: Date } | null;
  spring: { from: Date; to: Date } | null;
  fall: { from: Date; to: Date } | null;
  /** The spring window waits for warm nights, not weeks after frost. */
  warmDelayed: boolean;
  /** The spring window waits for thawed ground, not weeks before frost. */
  thawed: boolean;
}

/** A window moved later by `ms`. */
const moved = (w: { from: Date; to: Date } | null, ms: number): { from: Date; to: Date } | null =>
  w ? { from: new Date(w.from.getTime() + ms), to: new Date(w.to.getTime() + ms) } : null;

function windowsFor(crop: CropTiming, ctx: AdviceContext, yearOffset = 0): Windows {
  const shift = (d: Date | null): Date | null =>
    d ? new Date(Date.UTC(d.getUTCFullYear() + yearOffset, d.getUTCMonth(), d.getUTCDate())) : null;
  const last = shift(ctx.lastFrost);
  const first = shift(ctx.firstFrost);
  let indoor = crop.indoor && last ? windowAround(last, crop.indoor) : null;
  let spring = crop.spring && last ? windowAround(last, crop.spring) : null;
  // Alaska's ground thaws about when frosts end (soil near 45F): cool crops wait for it, not weeks
  // ahead, and their indoor start waits as long so transplants are not weeks too old.
  const thaw = !crop.warm && ctx.regionName === 'Alaska' ? last : null;
  const thawed = Boolean(spring && thaw && spring.from < thaw);
  if (spring && thaw && thawed) {
    const wait = thaw.getTime() - spring.from.getTime();
    indoor = moved(indoor, wait);
    spring = { from: thaw, to: spring.to > addDays(thaw, 14) ? spring.to : addDays(thaw, 14) };
  }
  const fall =
    crop.fall && first
      ? windowAround(first, crop.fall)
      : crop.warm && HOT_SUMMER_REGIONS.has(ctx.regionName ?? '')
        ? warmFall(crop, first, spring)
        : null;
  // Where nights stay cool long after frost, warm crops (and their indoor start) wait for warmth;
  // those set out weeks after frost elsewhere (peppers, okra) wait as much longer after the warm date.
  const warmNights = crop.warm ? shift(ctx.warmCrops) : null;
  const warm = warmNights ? addDays(warmNights, Math.max(0, (crop.spring?.[0] ?? 1) - 1) * 7) : null;
  const delay = warm && spring && warm > spring.from ? warm.getTime() - spring.from.getTime() : 0;
  if (delay === 0) return { indoor, spring, fall, warmDelayed: false, thawed };
  return { indoor: moved(indoor, delay), spring: moved(spring, delay), fall, warmDelayed: true, thawed };
}

/**
 * Where summers are long and hot (Texas, the Deep South, the desert), a warm crop gets a second,
 * fall planting: counted back from the first frost by its longest days to harvest, the slower
 * growth of fall and a month to ripen and pick, so fall tomatoes in Dallas go in from mid-June to
 * mid-July, not September.
 */
function warmFall(
  crop: CropTiming,
  first: Date | null,
  spring: { from: Date; to: Date } | null,
): { from: Date; to: Date } | null {
  if (!first || !spring) return null;
  const to = addDays(first, -(crop.maturity[1] + FALL_SLOWDOWN_DAYS + FALL_PICKING_DAYS));
  const from = addDays(to, -WARM_FALL_WINDOW_DAYS);
  return from.getTime() - spring.to.getTime() >= SECOND_SEASON_GAP_DAYS * DAY ? { from, to } : null;
}

/**
 * The last day a warm crop planted late still ripens: its shortest days to harvest before the first
 * frost, and never after a hot-summer fall window has closed (past it, fruit would set in the heat
 * and not ripen before frost).
 */
function lastChanceFor(crop: CropTiming, firstFrost: Date | null, w: Windows): Date | null {
  if (!crop.warm || !firstFrost) return null;
  const byFrost = addDays(firstFrost, -(crop.maturity[0] + 10));
  return w.fall && !crop.fall && w.fall.to < byFrost ? w.fall.to : byFrost;
}

/**
 * Where a warm crop set out in its window has less than its longest days to harvest and a week of
 * picking before the first fall frost (high desert, mountains, interior Alaska), say how gardeners
 * there gain the weeks: early varieties, and planting sooner under protection.
 */
function shortSeasonNote(crop: CropTiming, w: Windows, firstFrost: Date | null): string | null {
  if (!crop.warm || !w.spring || !firstFrost) return null;
  const days = Math.round((firstFrost.getTime() - w.spring.from.getTime()) / DAY);
  if (days >= crop.maturity[1] + 7) return null;
  const sooner =
    crop.method === 'transplants'
      ? 'set out under walls of water or row cover 2-3 weeks sooner'
      : 'started in pots 3 weeks ahead or under row cover';
  return `Short season (~${Math.max(days, 0)} days to frost): early varieties, ${sooner}.`;
}

/** General timing, in weeks from the frost dates, when the zone is unknown. */
function genericTiming(crop: CropTiming, mode: 'plant' | 'indoor' | 'grow'): string {
  const parts: string[] = [];
  if (mode === 'indoor' && crop.indoor) {
    parts.push(`Start ${crop.singular} seeds indoors ${weeksPhrase(crop.indoor)} your last spring frost.`);
  }
  if (crop.spring) {
    parts.push(
      `${capitalise(plantVerb(crop))} outside ${weeksPhrase(crop.spring)} your last spring frost, ${crop.condition}.`,
    );
  }
  if (crop.fall) {
    const when = `${weeksPhrase(crop.fall)} your first fall frost`;
    parts.push(
      crop.spring
        ? `For a fall crop, sow ${when}.`
        : `${capitalise(plantVerb(crop))} ${when}, ${crop.condition}.`,
    );
  }
  if (mode !== 'indoor' && crop.indoor && crop.method === 'transplants') {
    parts.push(`Start seeds indoors ${weeksPhrase(crop.indoor)} last frost, or buy plants.`);
  }
  return parts.join(' ');
}

/** "Apr 17-May 1 (mid-April to early May, 1-3 weeks after last frost)". */
function springWindow(w: Windows, crop: CropTiming): string {
  if (!w.spring) return '';
  const dates = datesInMonths(w.spring.from, w.spring.to);
  if (w.warmDelayed) return `${dates.slice(0, -1)}, weeks after last frost: nights stay cool here)`;
  if (w.thawed) return `${dates.slice(0, -1)}, from last frost: the ground thaws late here)`;
  return crop.spring ? `${dates.slice(0, -1)}, ${weeksPhrase(crop.spring)} last frost)` : dates;
}

/**
 * Where frost is rare or never comes, heat and the seasons time a crop: say so before the months,
 * briefly when the full lead would crowd the months out of the answer.
 */
function frostFreeLead(crop: CropTiming, ctx: AdviceContext): string {
  const where = ctx.frostFree ? 'No frost here' : 'Frost is rare here';
  const lead = crop.warm
    ? `${where}, so ${crop.name} can go in almost year-round; summer heat and heavy rain, not frost, set the best months.`
    : `${where}, so ${crop.name} go by heat, not frost: grow them in the cool season (fall through winter), not summer.`;
  return lead.length + 1 + crop.warmZones.length <= MAX
    ? lead
    : `${where}, so heat, not frost, sets the months.`;
}

/** The zone from which a crop goes by the calendar, not frost dates, for this gardener. */
function warmFromFor(crop: CropTiming, ctx: AdviceContext): number {
  if (crop.warmFrom === undefined) return WARM_FROM;
  const regions = crop.warmFromRegions;
  if (regions && !(ctx.regionName && regions.includes(ctx.regionName))) return WARM_FROM;
  return crop.warmFrom;
}

function beginnerTip(crop: CropTiming): string {
  return crop.method === 'transplants' ? 'New to this? Buying young plants is easier than seed.' : '';
}

/**
 * The planting-time answer for a crop, with real dates when the zone is known: the window this
 * year, "now's the time", a fall window, a last-chance date, or next year's window when it is late.
 */
export function cropTimingAnswer(
  crop: CropTiming,
  ctx: AdviceContext,
  mode: 'plant' | 'indoor' | 'grow',
): string {
  const tip = mode === 'grow' ? crop.tip : null;
  if (!ctx.zone || !ctx.frost) {
    return compose(MAX, genericTiming(crop, mode), tip, zipHint(ctx), mode !== 'grow' ? crop.tip : null);
  }
  const zone = ctx.zoneNumber ?? 0;
  if (ctx.frostFree || zone >= warmFromFor(crop, ctx)) {
    return compose(MAX, zone >= WARM_FROM ? frostFreeLead(crop, ctx) : null, crop.warmZones, tip ?? crop.tip);
  }
  const today = ctx.today;
  const now = windowsFor(crop, ctx);
  const next = windowsFor(crop, ctx, 1);
  const zoneText = zoneWithFrost(ctx, crop.spring ? 'spring' : 'fall');

  if (mode === 'indoor') {
    if (!crop.indoor || !now.indoor || !now.spring) {
      const w = now.spring && today <= now.spring.to ? now.spring : next.spring;
      return compose(
        MAX,
        w
          ? `${capitalise(crop.name)} do best sown right in the garden: in ${zoneText}, ${plantVerb(crop)} ${datesInMonths(w.from, w.to)}, ${crop.condition}.`
          : genericTiming(crop, 'plant'),
        crop.tip,
      );
    }
    // Seeds started after their weeks still make smaller transplants while there are 4 weeks to grow.
    // Where warm crops wait for warm nights, or cool crops for thawed ground, the start counts back
    // from planting out, not frost.
    const fromPlantingOut = now.warmDelayed || now.thawed;
    const startRef = fromPlantingOut ? 'planting out' : 'last frost';
    const startWeeks: [number, number] =
      fromPlantingOut && crop.spring
        ? [crop.indoor[0] - crop.spring[0], crop.indoor[1] - crop.spring[0]]
        : [crop.indoor[0], crop.indoor[1]];
    const lateStart = today > now.indoor.to && today.getTime() <= now.spring.to.getTime() - 28 * DAY;
    const useNext = today > addDays(now.indoor.to, 14) && !lateStart;
    const indoor = useNext ? (next.indoor ?? now.indoor) : now.indoor;
    const spring = useNext ? (next.spring ?? now.spring) : now.spring;
    const starting = lateStart
      ? `start ${crop.singular} seeds indoors right away (${partOfMonth(today)}; best ${weeksPhrase(startWeeks)} ${startRef}, ${dateRange(indoor.from, indoor.to)}) or buy transplants`
      : today >= indoor.from && today <= indoor.to
        ? `start ${crop.singular} seeds indoors now, by ${dateInMonth(indoor.to)} (${weeksPhrase(startWeeks)} ${startRef})`
        : `start ${crop.singular} seeds indoors ${datesInMonths(indoor.from, indoor.to)}${useNext ? ' next year' : ''}, ${weeksPhrase(startWeeks)} ${startRef}`;
    return compose(
      MAX,
      `In ${zoneText}, ${starting}, then plant them out ${datesInMonths(spring.from, spring.to)}, ${crop.condition}.`,
      useNext && now.spring && today <= now.spring.to
        ? `For this year, buy transplants and plant by ${formatDate(now.spring.to)}.`
        : null,
      'Use seed-starting mix and bright light 14-16 h a day.',
      byLevel(ctx, { beginner: beginnerTip(crop) }),
    );
  }

  const lastChance = lastChanceFor(crop, ctx.firstFrost, now);
  // Weeks after a warm crop's best window it is still spring: "plant by September" would mislead.
  const stillSpring =
    lastChance !== null &&
    now.spring !== null &&
    today > now.spring.to &&
    today.getTime() <= now.spring.to.getTime() + STILL_SPRING_DAYS * DAY &&
    today <= lastChance;
  let timing: string;
  if (now.spring && today <= now.spring.to) {
    if (today.getTime() < now.spring.from.getTime() - 7 * DAY) {
      // Seeds started up to 2 weeks late still make good transplants.
      const indoorEnd = now.indoor ? addDays(now.indoor.to, 14) : null;
      const indoorPart =
        now.indoor && indoorEnd && today <= indoorEnd
          ? today > now.indoor.to
            ? ` Start seeds indoors right away, or buy transplants.`
            : ` Start seeds indoors ${dateRange(today > now.indoor.from ? today : now.indoor.from, now.indoor.to)}.`
          : now.indoor && crop.method === 'transplants'
            ? ' It is late to start seeds, so buy transplants.'
            : '';
      // "Is it too early to ...?" gets its answer first.
      const wait = TOO_EARLY.test(ctx.question) ? 'Not yet, wait: i' : 'I';
      timing = `${wait}n ${zoneText}, ${plantVerb(crop)} ${springWindow(now, crop)}, ${crop.condition}.${indoorPart}`;
    } else {
      // "Is it too late to plant ...?" gets its answer first.
      const notLate = /\btoo late\b/.test(ctx.question) ? 'Not too late: now' : 'Now';
      timing = `${notLate}'s the time in ${zoneText}: ${plantVerb(crop)} through ${dateInMonth(now.spring.to)}, ${crop.condition}.`;
    }
  } else if (now.spring && !crop.warm && today.getTime() <= now.spring.to.getTime() + COOL_GRACE_DAYS * DAY) {
    timing = `It's a little late for spring ${crop.name} in ${zoneText}: ${plantVerb(crop)} right away (${partOfMonth(today)}, by ${formatDate(addDays(now.spring.to, COOL_GRACE_DAYS))}); they slow down once it turns hot.`;
  } else if (now.fall && today <= now.fall.to && !stillSpring) {
    const fallZone = zoneWithFrost(ctx, 'fall');
    const ripen = crop.warm ? ', in time to ripen before frost' : '';
    if (today.getTime() < now.fall.from.getTime() - 7 * DAY) {
      timing = crop.spring
        ? `Spring planting is over, but for a fall crop in ${fallZone}, ${plantVerb(crop)} ${datesInMonths(now.fall.from, now.fall.to)}${ripen}.`
        : `In ${fallZone}, ${plantVerb(crop)} ${datesInMonths(now.fall.from, now.fall.to)}, ${crop.condition}.`;
    } else {
      timing = `Plant now in ${fallZone}: ${plantVerb(crop)} by ${dateInMonth(now.fall.to)}${crop.spring ? ' for a fall crop' : ''}${ripen}.`;
    }
  } else {
    if (stillSpring && now.spring) {
      const still = /\btoo late\b/.test(ctx.question) ? 'Not too late' : 'Still a good time';
      timing = `${still} in ${zoneText}: ${plantVerb(crop)} now, the sooner the better (best was ${dateRange(now.spring.from, now.spring.to)}), ${crop.condition}.`;
    } else if (lastChance && now.spring && today > now.spring.to && today <= lastChance) {
      timing = `It's late but not too late in ${zoneWithFrost(ctx, 'fall')}: you can still ${plantVerb(crop)} by ${dateInMonth(lastChance)}, since ${crop.name} need ~${crop.maturity[0]} days. Use transplants or fast varieties.`;
    } else {
      const w = next.spring ?? next.fall;
      const which = next.spring ? 'Next spring' : 'Next fall';
      timing = w
        ? `It's too late for ${crop.name} this season in zone ${ctx.zone}. ${which}, ${plantVerb(crop)} ${datesInMonths(w.from, w.to)}, ${crop.condition}.`
        : genericTiming(crop, 'plant');
    }
  }
  const springGarlic =
    crop.name === 'garlic' && today.getUTCMonth() <= 3
      ? 'Missed fall? Plant cloves in early spring as soon as the soil thaws; bulbs will be smaller.'
      : null;
  const shortSeason =
    now.spring && today <= now.spring.to ? shortSeasonNote(crop, now, ctx.firstFrost) : null;
  // A beginner's tip comes before the general one: the answer has room for one of them.
  return compose(
    MAX,
    timing,
    springGarlic,
    shortSeason,
    byLevel(ctx, { beginner: beginnerTip(crop) }),
    tip ?? crop.tip,
  );
}

/**
 * What can go in the ground (or be started indoors) in a period: the crops whose windows overlap
 * it, with their dates, for "what can I plant now / in October / this fall?".
 */
export function whatToPlantAnswer(
  ctx: AdviceContext,
  period: { from: Date; to: Date },
  label: string,
): string {
  if (!ctx.zone || !ctx.frost) {
    return compose(
      MAX,
      'In general: early spring (2-6 weeks before last frost) peas, lettuce, spinach, radishes, onions and potatoes; after last frost tomatoes, peppers, beans, squash and cucumbers; late summer, fall lettuce, kale, carrots and beets; garlic and bulbs in fall.',
      zipHint(ctx),
    );
  }
  if (ctx.frostFree || (ctx.zoneNumber ?? 0) >= 10) {
    const month = period.from.getUTCMonth();
    const cool = month >= 8 || month <= 1;
    return compose(
      MAX,
      `In zone ${ctx.zone}, ${label} is ${cool ? 'the main veggie season: lettuce, kale, broccoli, carrots, beets, peas, onions and herbs, plus tomatoes and peppers started in late summer' : month <= 4 ? 'good for tomatoes, peppers, beans, squash, cucumbers, corn and melons before the summer heat' : 'hot: grow okra, sweet potatoes, southern peas, peppers and basil; start fall tomatoes in late Aug'}.`,
    );
  }
  const overlap = (w: { from: Date; to: Date } | null): { from: Date; to: Date } | null => {
    if (!w || w.to < period.from || w.from > period.to) return null;
    return { from: w.from < period.from ? period.from : w.from, to: w.to > period.to ? period.to : w.to };
  };
  const yearOffset = period.from.getUTCFullYear() - ctx.today.getUTCFullYear();
  const prime: string[] = [];
  const late: string[] = [];
  const start: string[] = [];
  const firstFrost = ctx.firstFrost
    ? new Date(
        Date.UTC(
          ctx.firstFrost.getUTCFullYear() + yearOffset,
          ctx.firstFrost.getUTCMonth(),
          ctx.firstFrost.getUTCDate(),
        ),
      )
    : null;
  for (const crop of CROPS) {
    const w = windowsFor(crop, ctx, yearOffset);
    const name = crop.name
      .replace('tulips and other spring bulbs', 'tulip bulbs')
      .replace('zucchini and summer squash', 'squash');
    const best = overlap(w.spring) ?? overlap(w.fall);
    if (best) {
      prime.push(`${name} (${dateRange(best.from, best.to)})`);
      continue;
    }
    // Warm crops can still go in after their best weeks while they have time to ripen before frost.
    const lastChance = w.spring ? lastChanceFor(crop, firstFrost, w) : null;
    const stretch =
      w.spring && lastChance && lastChance > w.spring.to
        ? overlap({ from: w.spring.from, to: lastChance })
        : null;
    if (stretch) late.push(`${name} (${dateRange(stretch.from, stretch.to)})`);
    else if (overlap(w.indoor)) start.push(name);
  }
  const sow = [...prime, ...late];
  if (sow.length === 0 && start.length === 0) {
    const winter = period.from.getUTCMonth() >= 10 || period.from.getUTCMonth() <= 1;
    return compose(
      MAX,
      `Not much goes in the ground ${label} in ${zoneWithFrost(ctx, 'both')}.`,
      winter
        ? 'Plan the garden, order seeds, and start onions and leeks indoors about 10-12 weeks before last frost.'
        : 'Keep harvesting, water deeply and mulch; plan fall crops for 8-12 weeks before first frost.',
    );
  }
  const fit = (intro: string, items: readonly string[], room: number): string | null => {
    const listed: string[] = [];
    for (const item of items) {
      if ((intro + [...listed, item].join(', ')).length > room) break;
      listed.push(item);
    }
    return listed.length > 0 ? `${intro}${listed.join(', ')}.` : null;
  };
  const primeText = fit(`Plant ${label} in zone ${ctx.zone}: `, prime, 230);
  const lateText = fit(
    primeText ? 'Still time for ' : `Still time ${label} in zone ${ctx.zone} for `,
    late,
    primeText ? 300 - primeText.length : 230,
  );
  return compose(
    MAX,
    primeText ?? lateText ?? `It is too early to plant outside ${label} in ${zoneWithFrost(ctx, 'spring')}.`,
    primeText ? lateText : null,
    !primeText && lateText ? 'Use transplants or fast varieties.' : null,
    start.length > 0 ? `Start seeds indoors: ${start.slice(0, 5).join(', ')}.` : null,
    byLevel(ctx, { beginner: 'Easiest first picks: lettuce, radishes, beans, herbs.' }),
  );
}
