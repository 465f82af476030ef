import { GENERAL, type Hit } from './search';

/**
 * What to do with the ranked entries: answer the best, answer two when the question is about two
 * things, or ask back when the ranking is not confident. The thresholds are calibrated on the
 * labelled sets in libs/gardening/eval (never on a held-out set).
 */
export type Decision =
  { kind: 'answer'; hits: [Hit] } | { kind: 'both'; hits: [Hit, Hit] } | { kind: 'clarify'; hits: Hit[] };

export const CONFIDENCE = {
  /** Below this BM25 score the best entry is a guess. */
  minScore: 4,
  /** Share of the question's content words the best entry must match. */
  minCoverage: 0.2,
  /** In a follow-up, this share of minCoverage is enough. */
  followUpShare: 0.5,
  /** A runner-up this close, matching the same words, makes the question ambiguous. */
  ambiguousRatio: 0.97,
  /** A runner-up this close, matching other words of the question, is a second subject. */
  secondSubjectRatio: 0.45,
};

/**
 * `withContext`: the question was read with the conversation (a follow-up), whose words the entry
 * may match instead of the question's own: less of the question itself needs to match.
 */
export function decide(hits: readonly Hit[], withContext = false): Decision {
  const [top, ...rest] = hits;
  // The general entry's keywords are the questions too vague to answer ("whats wrong with my plant").
  if (!top || top.entry.id === GENERAL) return { kind: 'clarify', hits: [] };
  const coverage = top.coverage;
  const minCoverage = withContext
    ? CONFIDENCE.minCoverage * CONFIDENCE.followUpShare
    : CONFIDENCE.minCoverage;
  if (top.score < CONFIDENCE.minScore || coverage < minCoverage) {
    return { kind: 'clarify', hits: top.score >= CONFIDENCE.minScore / 2 ? [top] : [] };
  }
  const topWords = new Set(top.own);
  for (const other of rest.slice(0, 3)) {
    if (other.score < top.score * CONFIDENCE.secondSubjectRatio) break;
    if (other.entry.topic === top.entry.topic && other.entry.file === top.entry.file) continue;
    const extra = other.own.filter((w) => !topWords.has(w));
    const shared = other.own.filter((w) => topWords.has(w));
    // Its own subject: words of the question the best entry did not cover, and not only those it did.
    if (extra.length > 0 && extra.length >= shared.length && top.own.some((w) => !other.own.includes(w))) {
      return { kind: 'both', hits: [top, other] };
    }
  }
  const second = rest[0];
  if (
    second &&
    second.score >= top.score * CONFIDENCE.ambiguousRatio &&
    second.entry.topic !== top.entry.topic &&
    second.own.length === top.own.length
  ) {
    return { kind: 'clarify', hits: [top, second] };
  }
  return { kind: 'answer', hits: [top] };
}
