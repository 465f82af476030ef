import { GENERAL, type Hit } from './search';

/**
 * What to do with the ranked entries: answer the best, answer two when the question is about two
 * things, or ask back when the ranking is not confident. The thresholds are calibrated on the
 * labelled sets in libs/gardening/eval (never on a held-out set).
 */
export type Decision =
  { kind: 'answer'; hits: [Hit] } | { kind: 'both'; hits: [Hit, Hit] } | { kind: 'clarify'; hits: Hit[] };

const CONFIDENCE = {
  /** Below this BM25 score the best entry is a guess. */
  minScore: 4,
  /** Share of the question's content words the best entry must match. */
  minCoverage: 0.35,
  /** In a follow-up, this share of minCoverage is enough. */
  followUpShare: 0.5,
  /**
   * In a follow-up, an entry that matches nothing of the conversation must cover this much of the
   * question itself: "and the little ones at the base?" after a banana question is not about gnats.
   */
  unrelatedFollowUpCoverage: 0.8,
  /** A runner-up this close, matching the same words, makes the question ambiguous. */
  ambiguousRatio: 0.97,
  /** A runner-up this close, matching other words of the question, is a second subject. */
  secondSubjectRatio: 0.35,
  /** How telling (summed word weights) the runner-up's own words must be to make a second subject. */
  secondSubjectWeight: 2,
  /**
   * A follow-up that says only what to do ("whats the best way to get rid of them") is about the
   * conversation: an entry matching this many of its words, this far ahead, answers.
   */
  conversationCarried: 3,
  conversationLead: 2,
  /**
   * A weak answer: under this coverage, with at most `thinAbout` of the question's words in what the
   * entry is about (the rest only in its answer text) and a runner-up within `thinRivalRatio`. On
   * the tuning sets these answers were wrong more often than right, and a wrong topic costs more
   * than a question back.
   */
  thinCoverage: 0.5,
  /** Only a question of this many words is weakly answered that way: a short one says little more. */
  thinMinWords: 8,
  thinAbout: 2,
  thinRivalRatio: 0.5,
  /** ...that covers no more of the question than this beyond the best (else the ranking has its reasons). */
  thinRivalCoverage: 0.15,
};

/**
 * `withContext`: the question was read with the conversation (a follow-up), whose words the entry
 * may match instead of the question's own: less of the question itself needs to match.
 */
/** Where a question turns to another subject: the end of a sentence, a joining word, or texting's "+" and "&". */
const CLAUSE_BREAK = /[.?!;+&]+|\b(?:also|and|plus|but|another)\b/i;

/** The parts of a question that can each be about something ("... for winter?? also ..."). */
export function questionParts(question: string): string[] {
  return question
    .split(CLAUSE_BREAK)
    .map((part) => part.trim())
    .filter((part) => part.split(/\s+/).length >= 2);
}

/** Whether a question has two parts that can each be about something. */
export function hasTwoParts(question: string): boolean {
  return questionParts(question).length >= 2;
}

/**
 * `weightOf` says how telling a word is; `twoParts`: the question has two parts (hasTwoParts), so
 * it may be about two things; `words`: how many words the question has.
 */
export function decide(
  hits: readonly Hit[],
  weightOf: (stem: string) => number,
  withContext = false,
  twoParts = false,
  words = 0,
): Decision {
  const [top, ...rest] = hits;
  // The general entry's keywords are the questions too vague to answer ("whats wrong with my plant").
  if (!top || top.entry.id === GENERAL) return { kind: 'clarify', hits: [] };
  const coverage = top.coverage;
  const minCoverage = withContext
    ? CONFIDENCE.minCoverage * CONFIDENCE.followUpShare
    : CONFIDENCE.minCoverage;
  const unrelated = withContext && top.carried === 0 && coverage < CONFIDENCE.unrelatedFollowUpCoverage;
  const second = rest[0];
  const aboutConversation =
    withContext &&
    top.carried >= CONFIDENCE.conversationCarried &&
    top.score >= (second?.score ?? 0) * CONFIDENCE.conversationLead;
  const thin =
    !withContext &&
    !twoParts &&
    words >= CONFIDENCE.thinMinWords &&
    coverage < CONFIDENCE.thinCoverage &&
    top.about.length <= CONFIDENCE.thinAbout &&
    second !== undefined &&
    second.score > top.score * CONFIDENCE.thinRivalRatio &&
    second.coverage <= top.coverage + CONFIDENCE.thinRivalCoverage;
  if (
    top.score < CONFIDENCE.minScore ||
    (coverage < minCoverage && !aboutConversation) ||
    unrelated ||
    thin
  ) {
    return { kind: 'clarify', hits: top.score >= CONFIDENCE.minScore / 2 ? [top] : [] };
  }
  // A second subject: a runner-up about words of the question the best entry is not about.
  const topWords = new Set(top.about);
  for (const other of twoParts ? rest.slice(0, 3) : []) {
    if (other.score < top.score * CONFIDENCE.secondSubjectRatio) break;
    if (other.entry.topic === top.entry.topic && other.entry.file === top.entry.file) continue;
    const extra = other.about.filter((w) => !topWords.has(w));
    const weight = extra.reduce((sum, w) => sum + weightOf(w), 0);
    if (weight >= CONFIDENCE.secondSubjectWeight && top.about.some((w) => !other.about.includes(w))) {
      return { kind: 'both', hits: [top, other] };
    }
  }
  // A runner-up is no rival to an entry about the plant named when it is not about that plant.
  if (
    second &&
    second.fit >= top.fit &&
    second.score >= top.score * CONFIDENCE.ambiguousRatio &&
    second.entry.topic !== top.entry.topic &&
    second.own.length === top.own.length
  ) {
    return { kind: 'clarify', hits: [top, second] };
  }
  return { kind: 'answer', hits: [top] };
}
