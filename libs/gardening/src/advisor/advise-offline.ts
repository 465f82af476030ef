import type { Topic } from '../analysis/topics';
import { fitToLength, toGsm7 } from '../text/gsm7';
import { addDays, formatDate } from '../text/dates';
import { buildContext, compose, type AdviceContext } from './context';
import { findCrop } from './crops';
import { KNOWLEDGE_BASE, MATCH_THRESHOLD, type AdviceEntry } from './knowledge-base';
import { cropTimingAnswer, whatToPlantAnswer } from './planting';

/** Longest advisor answer, in characters (two GSM-7 segments). */
export const ADVICE_MAX_CHARS = 320;

/** A question for the offline advisor, with what is known about the asker. */
export interface AdviceRequest {
  question: string;
  zipCode?: string | null;
  /** USDA zone ("7b"); takes precedence over the zone of `zipCode`. */
  zone?: string | null;
  region?: string | null;
  experienceLevel?: string | null;
  /** The date to answer for (planting windows, season); default now. */
  now?: Date;
}

/** The offline advisor's answer. */
export interface Advice {
  /** The SMS text: GSM-7 only, at most 320 characters. */
  answer: string;
  /** The taxonomy topic answered, or "general" for the clarifying fallback. */
  topic: Topic | 'general';
  /** Whether a knowledge-base answer matched (false: the general clarifying answer). */
  matched: boolean;
  /** Which knowledge-base entry answered (for logs and tests). */
  entryId: string;
}

const PLANT_TIME =
  /\b(?:when|what\s+time|how\s+early|how\s+late|too\s+(?:late|early)|best\s+time|right\s+time|good\s+time|is\s+it\s+time|can\s+i\s+still|still\s+(?:plant|sow|time)|time\s+to\s+(?:plant|sow|start)|what\s+month|which\s+month|date\s+to)\b/;
const PLANT_VERB =
  /\b(?:plant\w*|sow\w*|seed|seeding|start|starting|put\s+(?:\w+\s+)?(?:out|in)|set\s+(?:\w+\s+)?out|transplant\w*|grow\w*|go\s+in)\b/;
const SEED_START =
  /\b(?:start\w*|sow\w*)\b[^.?!]*\b(?:seeds?\s+)?(?:indoors|inside)\b|\bseeds?\s+indoors\b|\bstart\w*\b[^.?!]*\bseeds?\b|\bseeds?\b[^.?!]*\bstart\w*\b/;
const HOW_TO_GROW =
  /\bhow\s+(?:do\s+(?:i|you|we)\s+|to\s+|should\s+i\s+|can\s+i\s+)?(?:grow|raise|plant)\b|\bgrowing\s+tips\b|\btips\s+(?:for|on)\s+growing\b/;
const NOT_TIMING =
  /\b(?:harvest\w*|pick\w*|ripe|prun\w*|water\w*|fertili[sz]\w*|feed\w*|pests?|bugs?|disease|yellow\w*|spots?|dying|wilt\w*|store|cure|deep|far\s+apart|spacing|companions?|next\s+to)\b/;
const WHAT_TO_PLANT =
  /\bwhat\s+(?:can|should|do|could)\s+(?:i|we)\s+(?:\w+\s+)?(?:plant|sow|grow|put\s+in)\b|\bwhat\s+to\s+(?:plant|sow|grow)\b|\bwhat\s+(?:goes|grows)\s+in\b/;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function scoreEntry(entry: AdviceEntry, question: string): number {
  if (entry.requires && !entry.requires.every((p) => p.test(question))) return 0;
  if (entry.excludes?.some((p) => p.test(question))) return 0;
  let score = 0;
  for (const [pattern, weight] of entry.match) if (pattern.test(question)) score += weight;
  return score;
}

/** The best knowledge-base entry for a question and its score (0 when nothing matches). */
export function bestEntry(question: string): { entry: AdviceEntry | null; score: number } {
  let best: AdviceEntry | null = null;
  let bestScore = 0;
  for (const entry of KNOWLEDGE_BASE) {
    const score = scoreEntry(entry, question);
    if (score > bestScore) {
      best = entry;
      bestScore = score;
    }
  }
  return { entry: bestScore >= MATCH_THRESHOLD ? best : null, score: bestScore };
}

/** The period a "what can I plant ..." question is about, and how to name it. */
function plantingPeriod(ctx: AdviceContext): { from: Date; to: Date; label: string } {
  const q = ctx.question;
  const year = ctx.today.getUTCFullYear();
  const utc = (y: number, m: number, d: number): Date => new Date(Date.UTC(y, m, d));
  const monthIndex = MONTHS.findIndex((m) => new RegExp(`\\b${m}\\b`).test(q));
  if (monthIndex >= 0) {
    const y = utc(year, monthIndex + 1, 0) < ctx.today ? year + 1 : year;
    const name = MONTHS[monthIndex] ?? '';
    return {
      from: utc(y, monthIndex, 1),
      to: utc(y, monthIndex + 1, 0),
      label: `in ${name.charAt(0).toUpperCase()}${name.slice(1)}`,
    };
  }
  const seasons: Record<string, number> = { spring: 2, summer: 5, fall: 8, autumn: 8, winter: 11 };
  const season = /\b(spring|summer|fall|autumn|winter)\b/.exec(q)?.[1];
  if (season) {
    const start = seasons[season] ?? 2;
    let from = utc(year, start, 1);
    let to = utc(year, start + 3, 0);
    if (to < ctx.today) {
      from = utc(year + 1, start, 1);
      to = utc(year + 1, start + 3, 0);
    }
    if (from < ctx.today) from = ctx.today;
    return { from, to, label: `this ${season === 'autumn' ? 'fall' : season}` };
  }
  return { from: ctx.today, to: addDays(ctx.today, 21), label: 'in the next 3 weeks' };
}

function generalAnswer(ctx: AdviceContext): string {
  const seasonal: Record<string, string> = {
    winter: 'It is a good time to plan, order seeds and prune dormant fruit trees.',
    spring: 'It is prime planting season.',
    summer: 'Water deeply and watch for pests this time of year.',
    fall: 'Fall is great for planting garlic, bulbs, trees and lawn seed.',
  };
  return compose(
    ADVICE_MAX_CHARS,
    'Happy to help! Tell me the plant, what you see (yellow leaves, spots, wilting, holes?), whether it is in a pot or the ground, sun or shade, and how often you water.',
    ctx.zone ? null : 'Texting your ZIP code gets you advice timed to your frost dates.',
    ctx.zone && ctx.lastFrost
      ? `${seasonal[ctx.season] ?? ''} Your average last frost is ~${formatDate(ctx.lastFrost)}.`
      : seasonal[ctx.season],
  );
}

function finish(text: string, topic: Topic | 'general', matched: boolean, entryId: string): Advice {
  return { answer: fitToLength(toGsm7(text), ADVICE_MAX_CHARS), topic, matched, entryId };
}

/**
 * The offline gardening advisor: answers common questions from a knowledge base, with planting
 * windows computed from the frost dates of the asker's zone (from `zone`, or the ZIP's USDA zone),
 * adapted to the season of `now` and the experience level. When nothing matches it asks a
 * clarifying question (matched false). Answers are GSM-7 and at most 320 characters. This is the
 * template tier of the reply fallback chain and the default model when no OpenAI key is configured.
 */
export function adviseOffline(request: AdviceRequest): Advice {
  const ctx = buildContext(request);
  const q = ctx.question;
  const crop = findCrop(q);
  const { entry, score } = bestEntry(q);
  const strongEntry = entry && score >= 5;

  if (
    WHAT_TO_PLANT.test(q) &&
    !crop &&
    !/\b(?:shade|clay|pots?|containers?|balcony|beginner|easy|easiest|indoors?)\b/.test(q)
  ) {
    const period = plantingPeriod(ctx);
    return finish(whatToPlantAnswer(ctx, period, period.label), 'planting schedule', true, 'what-to-plant');
  }
  if (crop && !NOT_TIMING.test(q)) {
    if (SEED_START.test(q) && PLANT_TIME.test(q)) {
      return finish(
        cropTimingAnswer(crop, ctx, 'indoor'),
        'seed starting',
        true,
        `crop-indoor:${crop.singular}`,
      );
    }
    if (PLANT_TIME.test(q) && (PLANT_VERB.test(q) || /\btoo\s+(?:late|early)\b/.test(q)) && !strongEntry) {
      return finish(
        cropTimingAnswer(crop, ctx, 'plant'),
        'planting schedule',
        true,
        `crop-timing:${crop.singular}`,
      );
    }
    if (HOW_TO_GROW.test(q) && !strongEntry) {
      return finish(cropTimingAnswer(crop, ctx, 'grow'), crop.topic, true, `crop-grow:${crop.singular}`);
    }
  }
  if (entry) return finish(entry.answer(ctx), entry.topic, true, entry.id);
  if (crop && (PLANT_TIME.test(q) || HOW_TO_GROW.test(q))) {
    return finish(cropTimingAnswer(crop, ctx, 'grow'), crop.topic, true, `crop-grow:${crop.singular}`);
  }
  return finish(generalAnswer(ctx), 'general', false, 'general');
}

/** The latest sensible date to plant a crop before the first frost (exposed for tests and tools). */
export function lastPlantingDate(firstFrost: Date, maturityDays: number): Date {
  return addDays(firstFrost, -(maturityDays + 10));
}
