import { analyzeSms, fitToSms, toGsm7 } from '@sprout/sms';

export interface ComposedReply {
  text: string;
  /** The extra lines that made it into the text. */
  included: string[];
}

const SEPARATOR = '\n\n';
/** An extra line never cuts the answer below this many characters (or its whole length). */
const MIN_ANSWER_CHARS = 120;
const SENTENCE_END = /[.!?]+["')\]]*(?=\s|$)/g;

const fits = (text: string, maxSegments: number): boolean => analyzeSms(text).segments <= maxSegments;

/** The answer cut at its last sentence end that leaves room for `tail`; null when none does. */
const withTail = (answer: string, tail: string, maxSegments: number): string | null => {
  if (fits(answer + SEPARATOR + tail, maxSegments)) return answer + SEPARATOR + tail;
  const ends = [...answer.matchAll(SENTENCE_END)].map((m) => m.index + m[0].length).reverse();
  const floor = Math.min(answer.length, MIN_ANSWER_CHARS);
  for (const end of ends) {
    const head = answer.slice(0, end).trimEnd();
    if (head.length < floor) break;
    if (fits(head + SEPARATOR + tail, maxSegments)) return head + SEPARATOR + tail;
  }
  return null;
};

/** Subsets of the extras, largest first, each keeping their order. */
const subsetsBySize = <T>(extras: readonly T[]): T[][] => {
  const all: T[][] = [];
  for (let mask = (1 << extras.length) - 1; mask > 0; mask -= 1) {
    all.push(extras.filter((_, index) => (mask & (1 << index)) !== 0));
  }
  return all.sort((a, b) => b.length - a.length);
};

/**
 * The reply as sent: GSM-7 where possible, at most `maxSegments` segments,
 * cut at a sentence. Extra lines (the ZIP question, a survey link) are added after the answer
 * when they fit, shortening the answer at a sentence end if need be but never below a useful
 * length; those that do not fit are left for a later reply.
 */
export const composeReply = (
  answer: string,
  extras: readonly string[],
  maxSegments: number,
): ComposedReply => {
  const body = toGsm7(answer).trim();
  const lines = extras
    .map((original) => ({ original, text: toGsm7(original).trim() }))
    .filter((line) => line.text !== '');
  for (const subset of subsetsBySize(lines)) {
    const text = withTail(body, subset.map((line) => line.text).join('\n'), maxSegments);
    if (text !== null) return { text, included: subset.map((line) => line.original) };
  }
  return { text: fitToSms(body, maxSegments), included: [] };
};
