import type { Topic } from '../analysis/topics';
import { fitToLength, toGsm7 } from '../text/gsm7';
import { addDays } from '../text/dates';
import { analysisWindow } from '../text/words';
import { buildContext, zipHint, type AdviceContext } from './context';
import { findCropIn, type CropTiming } from './crops';
import { gardenerWords, resolveFollowUp, turnText, type ConversationTurn } from './followup';
import { advisorKnowledge, groupsToTest, type AdvisorKnowledge, type Entry } from './knowledge/load';
import { composeParts, renderParts, THREE_SEGMENTS, TWO_SEGMENTS } from './knowledge/render';
import { normalizeText } from './knowledge/terms';
import { cropTimingAnswer, whatToPlantAnswer } from './planting';

/** Answers are written to fit two GSM-7 segments (306 characters) when the content allows. */
export const ADVICE_TARGET_CHARS = TWO_SEGMENTS;
/** Longest advisor answer, in characters (three GSM-7 segments). */
export const ADVICE_MAX_CHARS = THREE_SEGMENTS;
/** Minimum score for an entry to answer. */
export const MATCH_THRESHOLD = 3;

/** A question for the offline advisor, with what is known about the asker. */
export interface AdviceRequest {
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
  /**
   * Earlier turns of the conversation, oldest first, as chat messages (the reply pipeline's
   * history: the gardener's words may be wrapped in <sms> tags). Follow-ups are read against them.
   */
  history?: readonly ConversationTurn[];
  /** The gardener declined to share a location: never ask for a ZIP. */
  locationRefused?: boolean;
}

/** The offline advisor's answer. */
export interface Advice {
  /** The SMS text: GSM-7 only, within two segments when the content allows (at most three). */
  answer: string;
  /** The taxonomy topic answered, or "general" for the clarifying fallback and image questions. */
  topic: Topic | 'general';
  /** Whether a knowledge entry matched (false: the general clarifying answer). */
  matched: boolean;
  /** Which knowledge entry answered ("crop-timing:tomato" for crop questions), for logs and tests. */
  entryId: string;
  /** The question as answered: normalised, and rewritten with the earlier question for a follow-up. */
  question: string;
  /** Whether the question was read as a follow-up of an earlier one. */
  followUp: boolean;
}

/** Text that is GSM-7 as it is (answers from the data files always are). */
const PLAIN = /^[A-Za-z0-9 .,;:!?'"()%&+\-/=<>*#@$\n]*$/;

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

/** The entry's score for a question: the weights of its groups that match, 0 when ruled out. */
function scoreEntry(entry: Entry, question: string, marks: Uint8Array, crop: CropTiming | null): number {
  if (entry.groups.length === 0 || (entry.subject === 'crop' && !crop)) return 0;
  let score = 0;
  for (const group of entry.groups) {
    if (marks[group.id] === 1 && group.pattern.test(question)) score += group.weight;
    else if (group.required) return 0;
  }
  return score;
}

function bestMatch(
  question: string,
  knowledge: AdvisorKnowledge,
  crop: CropTiming | null,
): { entry: Entry | null; score: number } {
  const marks = groupsToTest(knowledge.groupIndex, question.split(' '));
  let best: Entry | null = null;
  let bestScore = 0;
  for (const entry of knowledge.entries) {
    const score = scoreEntry(entry, question, marks, crop);
    // Exclusions only matter for an entry that would win.
    const exclude = entry.exclude;
    if (score > bestScore && !(exclude && marks[exclude.id] === 1 && exclude.pattern.test(question))) {
      best = entry;
      bestScore = score;
    }
  }
  return { entry: bestScore >= MATCH_THRESHOLD ? best : null, score: bestScore };
}

/** The best knowledge entry for a question and its score (entry null when nothing reaches the threshold). */
export function bestEntry(question: string): { entry: Entry | null; score: number } {
  const q = normalizeText(question);
  return bestMatch(q, advisorKnowledge(), findCropIn(q));
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

/** The text of an entry for this gardener, or null when none of its parts applies. */
function renderEntry(
  entry: Entry,
  ctx: AdviceContext,
  crop: CropTiming | null,
  knowledge: AdvisorKnowledge,
): string | null {
  switch (entry.compute) {
    case 'crop-timing':
      return crop ? cropTimingAnswer(crop, ctx, 'plant') : null;
    case 'crop-indoor':
      return crop ? cropTimingAnswer(crop, ctx, 'indoor') : null;
    case 'crop-grow':
      return crop ? cropTimingAnswer(crop, ctx, 'grow') : null;
    case 'what-to-plant': {
      const period = plantingPeriod(ctx);
      return whatToPlantAnswer(ctx, period, period.label);
    }
    case null:
    case undefined:
      break;
  }
  const parts = renderParts(entry.answer ?? [], ctx, crop, knowledge.plants);
  if (parts.length === 0) return null;
  const hint = entry.local ? zipHint(ctx) : null;
  return composeParts(hint ? [...parts, hint] : parts, ADVICE_TARGET_CHARS);
}

function topicOf(entry: Entry, crop: CropTiming | null): Topic | 'general' {
  if (entry.topic !== 'crop') return entry.topic;
  return crop?.topic ?? 'general';
}

/**
 * The offline gardening advisor. Its knowledge is data (libs/gardening/data/advisor, see
 * ADVISOR.md): entries matched by the words of the question and answered with the asker's zone,
 * frost dates, season, region, soil and experience filled in, plus planting windows computed from
 * the frost dates. A follow-up ("what about peppers?") is read against the earlier questions in
 * `history`. When nothing matches it asks a clarifying question (matched false). Answers are GSM-7
 * and fit two SMS segments when the content allows. This is the template tier of the reply
 * fallback chain and the default model when no OpenAI key is configured.
 */
export function adviseOffline(given: AdviceRequest): Advice {
  // Only the first ANALYSIS_MAX_CHARS characters of a question are read.
  const request = { ...given, question: analysisWindow(given.question) };
  const knowledge = advisorKnowledge();
  const history = request.history ?? [];
  const earlier = history.map(gardenerWords).filter((t): t is string => t !== null);
  const standsAlone = (q: string): boolean => bestMatch(q, knowledge, findCropIn(q)).entry !== null;
  const resolved =
    earlier.length > 0
      ? resolveFollowUp(request.question, earlier, knowledge, standsAlone)
      : { question: normalizeText(request.question), followUp: false };
  // Ask for a ZIP (or zone) once a conversation: an earlier reply that asked is enough.
  const askedForZip = history.some((t) => t.role === 'assistant' && /\b(?:ZIP|ZONE)\b/.test(turnText(t)));
  const ctx = buildContext({
    ...request,
    question: resolved.question,
    normalized: true,
    noZipHint: request.locationRefused === true || askedForZip,
  });
  const crop = findCropIn(ctx.question);
  const { entry } = bestMatch(ctx.question, knowledge, crop);
  const finish = (text: string, topic: Topic | 'general', matched: boolean, entryId: string): Advice => ({
    answer: fitToLength(PLAIN.test(text) ? text : toGsm7(text), ADVICE_MAX_CHARS),
    topic,
    matched,
    entryId,
    question: ctx.question,
    followUp: resolved.followUp,
  });
  if (entry) {
    const text = renderEntry(entry, ctx, crop, knowledge);
    if (text) {
      const id = entry.subject === 'crop' && crop ? `${entry.id}:${crop.singular}` : entry.id;
      return finish(text, topicOf(entry, crop), true, id);
    }
  }
  const general = knowledge.byId.get('general');
  const text = general ? renderEntry(general, ctx, null, knowledge) : null;
  return finish(text ?? 'Tell me the plant and what you see, and I will help.', 'general', false, 'general');
}

/** The latest sensible date to plant a crop before the first frost (exposed for tests and tools). */
export function lastPlantingDate(firstFrost: Date, maturityDays: number): Date {
  return addDays(firstFrost, -(maturityDays + 10));
}
