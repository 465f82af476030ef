import type { AdvisorKnowledge } from './knowledge/load';

/** A turn of the conversation as chat models see it (ChatMessage-compatible: text or parts). */
export interface ConversationTurn {
  role: string;
  content: string | ReadonlyArray<{ type: string; text?: string }>;
}

/** How a question was read: the question itself, or rewritten with what the conversation was about. */
export interface ResolvedQuestion {
  /** The question to answer, normalised (see normalizeText). */
  question: string;
  /** Whether it was read in the context of an earlier question. */
  followUp: boolean;
  /** The earlier question it continues (its words count for less than the question's own), or null. */
  context: string | null;
}

/** A question this short, with no subject of its own, is read with the conversation unless it stands alone. */
const SHORT_WORDS = 10;
/** A question this short ("how far apart?") is read with the conversation even when it could stand alone. */
const VERY_SHORT = 4;
/** This many words of its own (small words aside) make a message about something. */
const SAYS_WORDS = 3;
/** A subject this short ("my roses", "the hot peppers") is a bare subject, not a question of its own. */
const BARE_WORDS = 4;
/** Words that open a message going on with the last one. */
const CONTINUES = /^(?:and|but|also|plus|so|then|ok|okay|what if|how about)\b/;
/** A message that opens by pointing back ("it's 2 years old...", "the ones that are left...") goes on with the conversation up to this long. */
const POINTING_WORDS = 20;
const OPENS_POINTING = /^(?:it|its|they|theyre|them|those|these|the ones|the rest|this one|that one)\b/;
/** How many earlier questions a follow-up can reach back through. */
const MAX_EARLIER = 4;
const SMS_TAGS = /<sms>\s*([\s\S]*?)\s*<\/sms>/i;
const WHAT_ABOUT = /^(?:(?:and|but|ok|okay|so|hmm|also|then)\s+)?(?:what|how)\s+about\s+(.+)$/;
const AND_ALSO = /^(?:and|also|same\s+(?:for|with)|what\s+of|and\s+for|now)\s+(.+?)(?:\s+too|\s+as\s+well)?$/;
const TOO = /^((?:\S+\s+){0,3}\S+)\s+(?:too|as\s+well|also)$/;
const FILLER = /^(?:(?:my|the|our|some|a|an|for|with|on|about|to|of|in)\s+)+/;
/** Words that point back to what was being grown or done ("could I plant more for fall?"). */
const BACK_REFERENCE =
  /(?<![a-z0-9])(?:more|again|the rest|the ones|these ones|those ones|the same)(?![a-z0-9])/;
/** "the fence", "the spray": a thing already spoken of (the advisor's reply named it, not the gardener). */
const DEFINITE = /(?<![a-z0-9])the\s+(?!best|right|most|first|last|next|same|other)[a-z]+/;
const PRONOUN = /(?<![a-z0-9])(?:it|its|them|they|theyre|those|these|this one|that one)(?![a-z0-9])/;

/** The gardener's own words in a user turn (the reply pipeline wraps them in <sms> tags), else null. */
export function gardenerWords(turn: ConversationTurn): string | null {
  if (turn.role !== 'user') return null;
  const content = turnText(turn);
  const tagged = SMS_TAGS.exec(content);
  const text = tagged ? (tagged[1] ?? '') : content.replace(/^\[[^\]]*\]$/gm, '');
  return text.trim() || null;
}

/** The gardener's own messages among chat turns, oldest first. */
export function gardenerMessages(turns: readonly ConversationTurn[]): string[] {
  return turns.map(gardenerWords).filter((t): t is string => t !== null);
}

/** A turn's text (the text parts of a multi-part message). */
export function turnText(turn: ConversationTurn): string {
  return typeof turn.content === 'string'
    ? turn.content
    : turn.content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('\n');
}

interface Span {
  at: number;
  text: string;
  pest: boolean;
  /** A crop or plant by name, not a general word ("soil", "tree", "lawn"). */
  named: boolean;
}

/** Whether a subject's words name a crop or plant (the subjects are few: remembered). */
const namedSubjects = new Map<string, boolean>();

function subjects(text: string, knowledge: AdvisorKnowledge): Span[] {
  const out: Span[] = [];
  const pattern = knowledge.subjectPattern;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const text = m[0];
    let named = namedSubjects.get(text);
    if (named === undefined) {
      named = [...knowledge.crops, ...knowledge.plants].some((p) => p.pattern.test(text));
      if (namedSubjects.size < 5_000) namedSubjects.set(text, named);
    }
    out.push({ at: m.index, text, pest: knowledge.pestPattern.test(text), named });
  }
  return out;
}

/** `previous` about `replacement` instead of its own subject (a pest replaces a pest, a plant a plant). */
function substitute(previous: string, replacement: string, knowledge: AdvisorKnowledge): string {
  const target = subjects(replacement, knowledge)[0];
  const own = subjects(previous, knowledge);
  // Only a subject of the same kind is replaced; "for roses?" after an aphid question adds roses.
  const span = own.find((s) => target !== undefined && s.pest === target.pest);
  if (!span) return `${previous} ${replacement}`;
  return `${previous.slice(0, span.at)}${replacement}${previous.slice(span.at + span.text.length)}`;
}

/** Whether a message has enough words of its own to be about something (a ZIP or "ok" has not). */
function saysSomething(text: string, knowledge: AdvisorKnowledge): boolean {
  const { stopwords } = knowledge.language;
  return text.split(' ').filter((w) => /^[a-z]{3,}$/.test(w) && !stopwords.has(w)).length >= SAYS_WORDS;
}

/** The subject asked about in a "what about X?" form, or null. */
function whatAbout(text: string): string | null {
  const m = WHAT_ABOUT.exec(text) ?? AND_ALSO.exec(text) ?? TOO.exec(text);
  const rest = m?.[1]?.replace(FILLER, '').trim();
  return rest ? rest : null;
}

function resolveOne(
  text: string,
  previous: string | null,
  knowledge: AdvisorKnowledge,
  standsAlone: (question: string) => boolean,
): ResolvedQuestion {
  const alone = { question: text, followUp: false, context: null };
  if (previous === null) return alone;
  // A rewritten question is whole; a question read with the last one keeps that as context.
  const rewritten = (question: string): ResolvedQuestion => ({ question, followUp: true, context: null });
  const continues = (question: string): ResolvedQuestion => ({ question, followUp: true, context: previous });
  const own = subjects(text, knowledge);
  const about = whatAbout(text);
  const words = text.split(' ').length;
  // "what about my cauliflower, how do I keep it white": a new subject with its own question.
  const ownQuestion = about !== null && about.split(' ').length > BARE_WORDS;
  if (ownQuestion && own.length > 0) return alone;
  if (about !== null && !ownQuestion && (own.length > 0 || !standsAlone(text))) {
    return rewritten(substitute(previous, about, knowledge));
  }
  const before = subjects(previous, knowledge);
  // A message that says it goes on ("and the little ones at the base?") or points back continues.
  const goesOn =
    CONTINUES.test(text) || PRONOUN.test(text) || BACK_REFERENCE.test(text) || DEFINITE.test(text);
  if (own.length > 0) {
    // A bare subject ("peppers?", "my roses") answers or extends the last question.
    const bare = text.replace(knowledge.subjectPattern, ' ').replace(FILLER, '').trim() === '';
    if (bare && words <= BARE_WORDS) {
      return rewritten(substitute(previous, text.replace(FILLER, ''), knowledge));
    }
    // The same subject again ("can I still eat the zucchini?"), or "it" with a subject: the
    // conversation stays the context.
    // A general word ("the soil", "the tree") after a named plant is still about that plant.
    const same = own.every((o) => before.some((b) => b.text === o.text) || !o.named);
    if (words <= SHORT_WORDS && (same || goesOn)) return continues(text);
    // A longer message that points back: with only general words ("should I use the big ones, do
    // they need mulch" after garlic), or opening as a reply ("ok it rubs off, now it's on the
    // cucumbers too"), it is still about what the conversation was about.
    // So does a reply with only general words ("so should I add calcium or eggshells to the soil").
    const pointsBack = PRONOUN.test(text) || BACK_REFERENCE.test(text);
    if (
      words <= POINTING_WORDS &&
      ((pointsBack && (same || CONTINUES.test(text))) || (same && CONTINUES.test(text)))
    ) {
      const earlier = before.find((s) => s.named && !s.pest);
      return continues(same && earlier ? text.replace(PRONOUN, earlier.text) : text);
    }
    return alone;
  }
  const subject = before.find((s) => !s.pest) ?? before[0];
  if (subject && PRONOUN.test(text)) return continues(text.replace(PRONOUN, subject.text));
  // A short question with no subject of its own ("how far apart?", "ok now what") continues the
  // last one: the earlier question's words keep what it was about, at lower weight.
  if (
    words <= VERY_SHORT ||
    (words <= SHORT_WORDS && (goesOn || !standsAlone(text))) ||
    (words <= POINTING_WORDS && OPENS_POINTING.test(text))
  ) {
    return continues(text);
  }
  return alone;
}

/**
 * Reads a question in the context of the gardener's earlier questions: "what about peppers?" after
 * "when do I plant tomatoes?" is "when do i plant peppers", and "when do I harvest it?" after a
 * garlic question is about garlic. `earlier` is the gardener's earlier messages, oldest first;
 * `standsAlone` says whether a question has a confident answer of its own; `read` normalises a
 * message (shorthand, spelling).
 */
export function resolveFollowUp(
  question: string,
  earlier: readonly string[],
  knowledge: AdvisorKnowledge,
  standsAlone: (question: string) => boolean,
  read: (text: string) => string,
): ResolvedQuestion {
  let previous: string | null = null;
  for (const raw of earlier.slice(-MAX_EARLIER)) {
    const text = read(raw);
    if (text === '') continue;
    const resolved = resolveOne(text, previous, knowledge, standsAlone);
    // Only a message about something (a ZIP reply is not) becomes the context of the next, even
    // when the knowledge has no answer for it ("my banana bunch is ripe, what do I do after I cut it").
    if (
      resolved.followUp ||
      subjects(resolved.question, knowledge).length > 0 ||
      saysSomething(text, knowledge) ||
      standsAlone(text)
    ) {
      previous = resolved.context ? `${resolved.question} ${resolved.context}` : resolved.question;
    }
  }
  return resolveOne(read(question), previous, knowledge, standsAlone);
}
