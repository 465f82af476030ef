import type { TextAnalysis } from '../analysis/text-analysis';
import type { Topic } from '../analysis/topics';
import { fitToLength, toGsm7 } from '../text/gsm7';
import { addDays } from '../text/dates';
import { detectLocation } from '../location/detect-location';
import { normalizeText } from './knowledge/terms';
import { lookupZip } from '../places/zip';
import { analysisWindow } from '../text/words';
import { buildContext, zipHint, type AdviceAsker, type AdviceContext } from './context';
import { findCropIn, findCropsIn, type CropTiming } from './crops';
import { gardenerWords, resolveFollowUp, turnText, type ConversationTurn } from './followup';
import { advisorKnowledge, type AdvisorKnowledge, type Entry } from './knowledge/load';
import { composeParts, renderParts, THREE_SEGMENTS, TWO_SEGMENTS } from './knowledge/render';
import { capitalise, cropTimingAnswer, whatToPlantAnswer } from './planting';
import { decide, hasTwoParts, questionParts, type Decision } from './retrieval/decide';
import {
  advisorRetriever,
  contentStems,
  placeStems,
  readQuestion,
  search,
  type Hit,
} from './retrieval/search';

/** Answers are written to fit two GSM-7 segments (306 characters) when the content allows. */
export const ADVICE_TARGET_CHARS = TWO_SEGMENTS;
/** Longest advisor answer, in characters (three GSM-7 segments). */
export const ADVICE_MAX_CHARS = THREE_SEGMENTS;

/** A question for the offline advisor, with what is known about the asker. */
export interface AdviceRequest extends AdviceAsker {
  /**
   * Earlier turns of the conversation, oldest first, as chat messages (the reply pipeline's
   * history: the gardener's words may be wrapped in <sms> tags). Follow-ups are read against them.
   */
  history?: readonly ConversationTurn[];
  /** The gardener declined to share a location: never ask for a ZIP. */
  locationRefused?: boolean;
  /** The question's analysis (analyzeText), when the caller has one: its location is not read again. */
  analysis?: TextAnalysis;
}

/** The offline advisor's answer. */
export interface Advice {
  /** The SMS text: GSM-7 only, within two segments when the content allows (at most three). */
  answer: string;
  /** The taxonomy topic answered, or "general" for the clarifying fallback and image questions. */
  topic: Topic | 'general';
  /** Whether a knowledge entry answered (false: a clarifying question). */
  matched: boolean;
  /**
   * "answer": the advice; "clarify": the advisor was not sure what was asked and asks a short
   * question naming what it understood, instead of answering a different question.
   */
  kind: 'answer' | 'clarify';
  /** Which knowledge entry answered ("crop-timing:tomato" for crop questions), for logs and tests. */
  entryId: string;
  /** Every entry the answer (or the question asked back) is made of, best first. */
  entries: string[];
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
    // A fall harvest is planted from midsummer: "what can I plant now for a fall harvest" in July.
    const forFall = /\bfor (?:a |the )?(?:fall|autumn)\b|\b(?:fall|autumn) (?:harvest|crops?|garden)\b/.test(
      q,
    );
    const start = forFall ? 6 : (seasons[season] ?? 2);
    const months = forFall ? 5 : 3;
    let from = utc(year, start, 1);
    let to = utc(year, start + months, 0);
    if (to < ctx.today) {
      from = utc(year + 1, start, 1);
      to = utc(year + 1, start + months, 0);
    }
    if (from < ctx.today) from = ctx.today;
    return {
      from,
      to,
      label: forFall ? 'for a fall harvest' : `this ${season === 'autumn' ? 'fall' : season}`,
    };
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
  const parts = renderParts(entry.answer ?? [], ctx, crop, knowledge);
  if (parts.length === 0) return null;
  const hint = entry.local ? zipHint(ctx) : null;
  return composeParts(hint ? [...parts, hint] : parts, ADVICE_TARGET_CHARS);
}

/** At most this many crops of one question get their own timing. */
const MAX_CROPS = 3;

/**
 * "when do I plant kale for fall? and garlic?": a timing entry answers for each crop the question
 * names, the first sentence of each, since any crop's dates come from the same frost arithmetic.
 */
function eachCrop(
  entry: Entry,
  ctx: AdviceContext,
  crop: CropTiming | null,
  knowledge: AdvisorKnowledge,
): string | null {
  if (!crop || !entry.compute || entry.compute === 'what-to-plant') return null;
  const crops = findCropsIn(ctx.question);
  if (crops.length < 2) return null;
  const sentences = crops.slice(0, MAX_CROPS).map((c) => {
    const text = renderEntry(entry, ctx, c, knowledge) ?? '';
    return /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
  });
  // "In zone 6b (last frost ~May 12), " said once is enough for the crops after the first.
  const lead = /^[^,:]*\)[,:]\s/.exec(sentences[0] ?? '')?.[0];
  const rest = sentences
    .slice(1)
    .map((t) => (lead && t.startsWith(lead) ? capitalise(t.slice(lead.length)) : t));
  return composeParts(
    [sentences[0] ?? '', ...rest].filter((t) => t.length > 0),
    ADVICE_TARGET_CHARS,
  );
}

function topicOf(entry: Entry, crop: CropTiming | null): Topic | 'general' {
  if (entry.topic !== 'crop') return entry.topic;
  return crop?.topic ?? 'general';
}

/** Whether the text names a town as the one the gardener came from ("moved here from phoenix"). */
function movedFrom(text: string, city: string): boolean {
  const words = ` ${normalizeText(text)} `;
  const at = words.indexOf(` ${normalizeText(city)} `);
  return at >= 0 && /\bfrom (?:\w+ ){0,2}$/.test(words.slice(0, at + 1));
}

/** How a request was read: the context, the crop, the ranked entries and what to do with them. */
export interface Reading {
  ctx: AdviceContext;
  crop: CropTiming | null;
  hits: Hit[];
  decision: Decision;
  followUp: boolean;
  /** The earlier question a follow-up was read with, or null. */
  context: string | null;
}

/** Whether a message has a confident answer of its own, by its text as read (the oldest forgotten first). */
const alone = new Map<string, boolean>();
const MAX_REMEMBERED = 2_000;

export function readRequest(given: AdviceRequest): Reading {
  // Only the first ANALYSIS_MAX_CHARS characters of a question are read.
  const request = { ...given, question: analysisWindow(given.question) };
  const retriever = advisorRetriever();
  const history = request.history ?? [];
  const earlier = history.map(gardenerWords).filter((t): t is string => t !== null);
  const located = given.analysis?.text === given.question ? given.analysis.location : undefined;
  const found = located ?? detectLocation(request.question);
  // The gardener's own town and the town the text names ("new to santa fe", "moved from phoenix"):
  // places, not words to correct or to answer about.
  const town = request.zipCode ? lookupZip(request.zipCode)?.city : undefined;
  const known = [town, found.city].filter((t): t is string => !!t);
  // "moved here from phoenix" names where the gardener was, not where the garden is.
  const named = found.city && movedFrom(request.question, found.city) ? undefined : found;
  const read = (q: string): string =>
    readQuestion(q, retriever, known, q === request.question ? found : undefined);
  const standsAlone = (q: string): boolean => {
    const known = alone.get(q);
    if (known !== undefined) return known;
    const crop = findCropIn(q) !== null;
    const hits = search({ text: q, crop, region: null, season: null }, retriever);
    const answer = decide(hits, retriever.weightOf).kind !== 'clarify';
    // Each turn of a conversation asks this again about every earlier message: remember it.
    if (alone.size >= MAX_REMEMBERED) alone.delete(alone.keys().next().value ?? '');
    alone.set(q, answer);
    return answer;
  };
  const resolved =
    earlier.length > 0
      ? resolveFollowUp(request.question, earlier, retriever.knowledge, standsAlone, read)
      : { question: read(request.question), followUp: false, context: null };
  // Ask for a ZIP (or zone) once a conversation: an earlier reply that asked is enough.
  const askedForZip = history.some((t) => t.role === 'assistant' && /\b(?:ZIP|ZONE)\b/.test(turnText(t)));
  const ctx = buildContext({
    ...request,
    question: resolved.question,
    normalized: true,
    noZipHint: request.locationRefused === true || askedForZip,
    named,
  });
  const crop = findCropIn(ctx.question) ?? (resolved.context ? findCropIn(resolved.context) : null);
  const hits = search(
    {
      text: ctx.question,
      context: resolved.context ?? undefined,
      crop: crop !== null,
      region: ctx.regionName,
      season: ctx.season,
      place: placeStems(ctx.question, retriever.knowledge, known),
    },
    retriever,
  );
  const whole = decide(
    hits,
    retriever.weightOf,
    resolved.context !== null,
    hasTwoParts(request.question),
    request.question.trim().split(/\s+/).length,
  );
  const decision = resolved.context !== null ? whole : bothParts(whole, request.question, read, ctx, known);
  return { ctx, crop, hits, decision, followUp: resolved.followUp, context: resolved.context };
}

/** A question of its own read part by part when unclear as a whole, or when its answer leaves a part out. */
function bothParts(
  whole: Decision,
  question: string,
  read: (q: string) => string,
  ctx: AdviceContext,
  known: readonly string[],
): Decision {
  const parts = questionParts(question);
  if (parts.length < 2 || parts.length > MAX_PARTS) return whole;
  const reading = { read, ctx, known, subject: firstSubject(ctx.question, advisorRetriever().knowledge) };
  if (whole.kind === 'clarify') return partsDecision(parts, reading) ?? whole;
  const [top] = whole.hits;
  if (whole.kind !== 'answer' || !top) return whole;
  const other = unansweredPart(parts, top, reading);
  return other ? { kind: 'both', hits: [top, other] } : whole;
}

/** How much of its part an entry must cover: a part is short, so it must say what it is about. */
const PART_COVERAGE = 0.5;
/** ...with this many of its words in what the entry is about ("got seedlings ready" is not compost). */
const PART_ABOUT = 2;
/** A text of more parts than this is too scattered to answer part by part. */
const MAX_PARTS = 4;
/**
 * A part is left unanswered when the answering entry is about less than this share of what the
 * part asks (its words other than plant names, by how telling they are).
 */
const PART_ANSWERED = 0.5;
/** A part that asks something opens with a question word; the others tell (what is seen, where). */
const ASKING = /^(?:when|how|what|which|why|where|can|could|should|do|does|is|are|will|would)\b/i;

/** How the parts of a text are read: the question's plant stands in for a part that names none. */
interface PartReading {
  read: (q: string) => string;
  ctx: AdviceContext;
  known: readonly string[];
  subject: string | null;
}

/** The confident answer to one part of a text, read on its own. */
function partAnswer(part: string, { read, ctx, known, subject }: PartReading): Hit | null {
  const retriever = advisorRetriever();
  const own = read(part);
  const text = subject && firstSubject(own, retriever.knowledge) === null ? `${own} ${subject}` : own;
  const hits = search(
    {
      text,
      crop: findCropIn(text) !== null,
      region: ctx.regionName,
      season: ctx.season,
      place: placeStems(text, retriever.knowledge, known),
    },
    retriever,
  );
  const decision = decide(hits, retriever.weightOf, false, false, text.split(' ').length);
  const top = decision.kind === 'answer' ? decision.hits[0] : undefined;
  return top && top.coverage >= PART_COVERAGE && top.about.length >= PART_ABOUT ? top : null;
}

/**
 * A messy text in several parts that is unclear as a whole ("cukes r getting yellow leaves?? i
 * think its the heat lol. also how big do i let them get before picking"): it answers when every
 * part has a confident answer of its own and the parts need at most two entries.
 */
function partsDecision(parts: readonly string[], reading: PartReading): Decision | null {
  const found: Hit[] = [];
  for (const part of parts) {
    const top = partAnswer(part, reading);
    if (!top) return null;
    if (!found.some((h) => h.entry.id === top.entry.id)) found.push(top);
  }
  const [first, second, third] = found;
  if (!first || third) return null;
  return second ? { kind: 'both', hits: [first, second] } : { kind: 'answer', hits: [first] };
}

/**
 * A text in parts answered as a whole by an entry about one part only ("when do i plant tomatoes n
 * peppers here and how far apart" reaching spacing, which says nothing of when): a part whose
 * asking words the entry is not about, and which has a confident answer of its own, adds that answer.
 */
function unansweredPart(parts: readonly string[], answered: Hit, reading: PartReading): Hit | null {
  const retriever = advisorRetriever();
  const about = new Set(answered.about);
  let best: Hit | null = null;
  for (const part of parts.filter((p) => ASKING.test(p))) {
    // What the part asks: its words other than plant names, by how telling they are.
    const asks = contentStems(reading.read(part), retriever.knowledge).filter(
      (w) => !retriever.allPlantStems.has(w),
    );
    const total = asks.reduce((sum, w) => sum + retriever.weightOf(w), 0);
    const covered = asks.reduce((sum, w) => sum + (about.has(w) ? retriever.weightOf(w) : 0), 0);
    if (total === 0 || covered >= total * PART_ANSWERED) continue;
    const top = partAnswer(part, reading);
    if (!top || top.entry.id === answered.entry.id) continue;
    if (!best || top.coverage > best.coverage) best = top;
  }
  return best;
}

const entryIdOf = (entry: Entry, crop: CropTiming | null): string =>
  entry.subject === 'crop' && crop ? `${entry.id}:${crop.singular}` : entry.id;

/** What the question was understood to be about, for a clarifying question ("your fig"). */
function understoodSubject(
  ctx: AdviceContext,
  crop: CropTiming | null,
  knowledge: AdvisorKnowledge,
  context: string | null,
): string | null {
  if (crop) return crop.name;
  // The question's own subject, else the one the conversation was about ("your banana").
  return firstSubject(ctx.question, knowledge) ?? firstSubject(context ?? '', knowledge);
}

/** The first plant or subject a text names ("tomatoes", "the soil"), or null. */
function firstSubject(text: string, knowledge: AdvisorKnowledge): string | null {
  const pattern = knowledge.subjectPattern;
  pattern.lastIndex = 0;
  const found = pattern.exec(text)?.[0] ?? null;
  pattern.lastIndex = 0;
  return found;
}

/** The short question asked back when retrieval is not sure which entry answers. */
function clarifyingQuestion(hits: readonly Hit[], subject: string | null): string | null {
  const [a, b] = hits;
  const about = subject ? ` with your ${subject}` : '';
  if (a && b) {
    return `I want to answer the right question: is this about ${a.entry.label} or ${b.entry.label}${about}? Text a few more words (what you see, and where) and I will answer.`;
  }
  if (a) {
    return `Is this about ${a.entry.label}${about}? Text a few more words (the plant, what you see, and where) so I answer the right question.`;
  }
  return subject
    ? `Tell me more about your ${subject}: what do you see (yellow leaves, spots, wilting, holes?), is it in a pot or the ground, and what would you like to know?`
    : null;
}

/**
 * The offline gardening advisor. Its knowledge is data (libs/gardening/data/advisor, see
 * ADVISOR.md): the question is read (shorthand, misspellings), the entries are ranked by retrieval
 * over the words a horticulturist wrote for them, and the best one is answered with the asker's
 * zone, frost dates, season, region, soil and experience filled in, plus planting windows computed
 * from the frost dates. A follow-up ("what about peppers?", "can they go in pots?") is read against
 * the earlier questions in `history`. A question about two things gets both, briefly; when the
 * ranking is not confident the advisor asks back, naming what it understood (kind "clarify").
 * Answers are GSM-7 and fit two SMS segments when the content allows. This is the template tier of
 * the reply fallback chain and the default model when no OpenAI key is configured.
 */
export function adviseOffline(given: AdviceRequest): Advice {
  const knowledge = advisorKnowledge();
  const { ctx, crop, decision, followUp, context } = readRequest(given);
  const finish = (
    text: string,
    topic: Topic | 'general',
    kind: Advice['kind'],
    used: readonly Entry[],
  ): Advice => {
    const ids = used.map((e) => entryIdOf(e, crop));
    return {
      answer: fitToLength(PLAIN.test(text) ? text : toGsm7(text), ADVICE_MAX_CHARS),
      topic,
      matched: kind === 'answer',
      kind,
      entryId: ids[0] ?? 'general',
      entries: ids,
      question: ctx.question,
      followUp,
    };
  };
  if (decision.kind === 'answer' || decision.kind === 'both') {
    const [first, second] = decision.hits;
    const text = first ? renderEntry(first.entry, ctx, crop, knowledge) : null;
    if (first && text) {
      const several = decision.kind === 'answer' ? eachCrop(first.entry, ctx, crop, knowledge) : null;
      if (several) return finish(several, topicOf(first.entry, crop), 'answer', [first.entry]);
      if (decision.kind === 'answer' || !second)
        return finish(text, topicOf(first.entry, crop), 'answer', [first.entry]);
      // Two subjects: the core of each, the first as ranked; when both open with the same
      // sentence (a regional list), the second's next sentence instead.
      const sentences = (entry: Entry): string[] => {
        if (!entry.compute) return renderParts(entry.answer ?? [], ctx, crop, knowledge);
        const computed = renderEntry(entry, ctx, crop, knowledge);
        return computed ? [computed] : [];
      };
      const a = sentences(first.entry)[0];
      const b = a && sentences(second.entry).find((t) => !a.includes(t) && !t.includes(a));
      if (a && b) {
        return finish(`${a} ${b}`, topicOf(first.entry, crop), 'answer', [first.entry, second.entry]);
      }
      return finish(text, topicOf(first.entry, crop), 'answer', [first.entry]);
    }
  }
  const asked = clarifyingQuestion(
    decision.kind === 'clarify' ? decision.hits : [],
    understoodSubject(ctx, crop, knowledge, context),
  );
  if (asked)
    return finish(
      asked,
      'general',
      'clarify',
      decision.hits.map((h) => h.entry),
    );
  const general = knowledge.byId.get('general');
  const text = general ? renderEntry(general, ctx, null, knowledge) : null;
  return finish(text ?? 'Tell me the plant and what you see, and I will help.', 'general', 'clarify', []);
}

/** Entries scoring under this share of the best one are not worth a model's attention. */
const REFERENCE_SHARE = 0.5;

/** A knowledge entry filled in for the gardener, as reference for a model. */
export interface AdvisorReference {
  entryId: string;
  topic: Topic | 'general';
  label: string;
  text: string;
}

/**
 * The best entries for a request (up to `count`), each filled in for the gardener's zone, dates
 * and region: the reference a model answers with. Empty when nothing in the knowledge fits.
 */
export function advisorReferences(given: AdviceRequest, count = 3): AdvisorReference[] {
  const knowledge = advisorKnowledge();
  const { ctx, crop, hits } = readRequest(given);
  const top = hits[0]?.score ?? 0;
  const out: AdvisorReference[] = [];
  for (const hit of hits) {
    if (out.length >= count || hit.score < top * REFERENCE_SHARE) break;
    const text = renderEntry(hit.entry, ctx, crop, knowledge);
    if (!text) continue;
    out.push({
      entryId: entryIdOf(hit.entry, crop),
      topic: topicOf(hit.entry, crop),
      label: hit.entry.label,
      text,
    });
  }
  return out;
}

/** The latest sensible date to plant a crop before the first frost (exposed for tests and tools). */
export function lastPlantingDate(firstFrost: Date, maturityDays: number): Date {
  return addDays(firstFrost, -(maturityDays + 10));
}
