import type { AdvisorKnowledge } from '../knowledge/load';
import { normalizeText } from '../knowledge/terms';
import { editDistance } from '../../text/words';
import { stem } from './stem';

/**
 * Reads a gardener's text the way a person would: shorthand and common misspellings from
 * language.json ("hw" -> "how", "outta" -> "out of"), then any word the knowledge does not use
 * corrected to the nearest word it does ("squirells" -> "squirrels"), when one is close enough.
 */

/** The words the knowledge uses, with how often, for spelling correction. */
export interface Lexicon {
  counts: ReadonlyMap<string, number>;
  /** Words by first letter, for candidate lookup. */
  byInitial: ReadonlyMap<string, readonly string[]>;
}

export function buildLexicon(texts: Iterable<string>): Lexicon {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const word of normalizeText(text).split(' ')) {
      if (/^[a-z]{2,}$/.test(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  const byInitial = new Map<string, string[]>();
  for (const word of counts.keys()) {
    const list = byInitial.get(word[0] ?? '') ?? [];
    list.push(word);
    byInitial.set(word[0] ?? '', list);
  }
  return { counts, byInitial };
}

const corrections = new WeakMap<Lexicon, Map<string, string | null>>();

/** The closest word of the lexicon to an unknown word, or null when none is close (remembered). */
function correct(word: string, lexicon: Lexicon): string | null {
  let known = corrections.get(lexicon);
  if (!known) {
    known = new Map();
    corrections.set(lexicon, known);
  }
  if (known.has(word)) return known.get(word) ?? null;
  const found = closest(word, lexicon);
  if (known.size < MAX_REMEMBERED) known.set(word, found);
  return found;
}

/** How many corrections are remembered (unknown words are few; a cap keeps memory bounded). */
const MAX_REMEMBERED = 10_000;

/** The lexicon's word nearest an unknown one (one edit from 5 letters, two from 8), or null. */
export function closest(word: string, lexicon: Lexicon): string | null {
  const max = word.length >= 8 ? 2 : word.length >= 5 ? 1 : 0;
  if (max === 0) return null;
  let best: { word: string; distance: number; count: number } | null = null;
  // A misspelling rarely changes the first letter; a swap of the first two is tried too.
  const initials = new Set([word[0] ?? '', word[1] ?? '']);
  for (const initial of initials) {
    for (const candidate of lexicon.byInitial.get(initial) ?? []) {
      if (candidate.length < 4) continue;
      const distance = editDistance(word, candidate, max);
      if (distance > max) continue;
      const count = lexicon.counts.get(candidate) ?? 0;
      if (!best || distance < best.distance || (distance === best.distance && count > best.count)) {
        best = { word: candidate, distance, count };
      }
    }
  }
  return best?.word ?? null;
}

/**
 * The question normalised (normalizeText) with shorthand expanded and unknown words corrected. A
 * word is known when the knowledge uses it, its stem matches a known word's, or it is a small word;
 * `keep` are words never corrected (a place's name: "santa fe" is not "santo fe").
 */
export function readText(
  text: string,
  knowledge: AdvisorKnowledge,
  lexicon: Lexicon,
  keep: ReadonlySet<string> = new Set(),
): string {
  const { shorthand, stopwords, irregular, units } = knowledge.language;
  const words = normalizeText(text).split(' ').filter(Boolean);
  const out: string[] = [];
  const knownStems = knownStemsOf(lexicon, irregular);
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    const pair = i + 1 < words.length ? `${word} ${words[i + 1] ?? ''}` : null;
    const pairForm = pair !== null ? shorthand.get(pair) : undefined;
    if (pairForm !== undefined) {
      out.push(pairForm);
      i++;
      continue;
    }
    const short = shorthand.get(word);
    // "2 years", "4 hrs": a number before a unit (or another number) is a number, not "to" or "for".
    const next = words[i + 1] ?? '';
    const counted = /^\d+$/.test(word) && (units.has(next) || /^\d/.test(next));
    if (short !== undefined && !counted) {
      out.push(short);
      continue;
    }
    if (
      !/^[a-z]+$/.test(word) ||
      stopwords.has(word) ||
      keep.has(word) ||
      lexicon.counts.has(word) ||
      knownStems.has(stem(word, irregular))
    ) {
      out.push(word);
      continue;
    }
    out.push(correct(word, lexicon) ?? word);
  }
  return normalizeText(withReadings(out.join(' ').split(' '), knowledge.language.readings).join(' '));
}

/** The words with what their numbers mean added ("ph 5.2" -> "ph 5.2 acidic sour soil"). */
function withReadings(words: string[], readings: AdvisorKnowledge['language']['readings']): string[] {
  if (readings.length === 0) return words;
  return words.flatMap((word, i) => {
    const value = Number(word);
    if (i === 0 || word === '' || Number.isNaN(value)) return [word];
    const meant = readings.filter(
      (r) =>
        r.after === words[i - 1] &&
        (r.below === undefined || value < r.below) &&
        (r.above === undefined || value > r.above),
    );
    return [word, ...meant.map((r) => r.means)];
  });
}

const stemCache = new WeakMap<Lexicon, Set<string>>();

function knownStemsOf(lexicon: Lexicon, irregular: ReadonlyMap<string, string>): Set<string> {
  let stems = stemCache.get(lexicon);
  if (!stems) {
    stems = new Set([...lexicon.counts.keys()].map((w) => stem(w, irregular)));
    stemCache.set(lexicon, stems);
  }
  return stems;
}
