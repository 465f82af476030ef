/**
 * The term language of the advisor's data files (see ADVISOR.md): what a horticulturist writes
 * instead of regular expressions.
 *
 *   aphid          the word, or its plural (aphids); "berry" also matches "berries"
 *   prun*          any word starting with "prun" (prune, pruning, pruned)
 *   fall leaves    the words in sequence
 *   how often ... water   up to 4 words may come between "how often" and "water"
 *   @tomato        every term of the vocabulary group "tomato" (vocabulary.json)
 *   re:\d+-\d+-\d+ a regular expression, for the rare case the rest cannot say
 *
 * Questions are normalised first (lower case, apostrophes dropped, punctuation to spaces), so
 * "What's" is "whats" and "over-winter" is "over winter".
 */

/** Lower case, apostrophes dropped, anything but letters, numbers and number ranges to single spaces. */
export function normalizeText(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/['\u2018\u2019\u02bc`]/g, '')
      .replace(/[^a-z0-9.-]+/g, ' ')
      // A point stays only inside a number ("ph 5.2", "1.5 inches").
      .replace(/(?<!\d)\.|\.(?!\d)/g, ' ')
      // A hyphen stays only inside a number range ("10-10-10"); "over-winter" is "over winter".
      .replace(/(?<!\d)-|-(?!\d)/g, ' ')
      .replace(/ {2,}/g, ' ')
      .trim()
  );
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function wordSource(word: string): string {
  if (word.endsWith('*')) return `${escape(word.slice(0, -1))}[a-z0-9]*`;
  const w = escape(word);
  if (/[^aeiou]y$/.test(word)) return `(?:${w}|${escape(word.slice(0, -1))}ies)`;
  if (/o$/.test(word)) return `${w}(?:e?s)?`;
  if (/(?:s|x|z|ch|sh)$/.test(word)) return `${w}(?:es)?`;
  return `${w}s?`;
}

/** The regular-expression source of one term (vocabulary references already expanded). */
export function termSource(term: string): string {
  if (term.startsWith('re:')) return `(?:${term.slice(3)})`;
  const out: string[] = [];
  let gap = false;
  for (const token of term.trim().split(/\s+/)) {
    if (token === '...') {
      gap = out.length > 0;
      continue;
    }
    const star = token.endsWith('*');
    const words = normalizeText(star ? token.slice(0, -1) : token)
      .split(' ')
      .filter(Boolean);
    words.forEach((w, i) => {
      const source = wordSource(star && i === words.length - 1 ? `${w}*` : w);
      out.push(out.length === 0 ? source : gap ? `(?: [a-z0-9-]+){0,4} ${source}` : ` ${source}`);
      gap = false;
    });
  }
  if (out.length === 0) throw new Error(`empty term "${term}"`);
  return out.join('');
}

/** The terms with every "@group" replaced by the group's terms (groups may refer to groups). */
export function expandTerms(
  terms: readonly string[],
  vocabulary: ReadonlyMap<string, readonly string[]>,
): string[] {
  const out: string[] = [];
  const expand = (term: string, depth: number): void => {
    if (!term.startsWith('@')) {
      out.push(term);
      return;
    }
    const group = vocabulary.get(term.slice(1));
    if (!group) throw new Error(`unknown vocabulary group ${term}`);
    if (depth > 5) throw new Error(`vocabulary group ${term} refers to itself`);
    for (const t of group) expand(t, depth + 1);
  };
  for (const term of terms) expand(term, 0);
  return out;
}

/** A group of terms, any of which may match, as one regular expression over normalised text. */
export function compileTerms(
  terms: readonly string[],
  vocabulary: ReadonlyMap<string, readonly string[]>,
): RegExp {
  const sources = expandTerms(terms, vocabulary).map(termSource);
  return new RegExp(`(?<![a-z0-9])(?:${sources.join('|')})(?![a-z0-9])`);
}

/** The words a term can start with, so most terms can be ruled out without running their pattern. */
export interface TermPrefilter {
  /** Exact first words (with their plurals). */
  words: Set<string>;
  /** First-word prefixes ("prun" for "prun*"). */
  prefixes: string[];
  /** Some term cannot be prefiltered (a "re:" term): always run the pattern. */
  always: boolean;
}

/** The prefilter of a group of (expanded) terms. */
export function termPrefilter(terms: readonly string[]): TermPrefilter {
  const filter: TermPrefilter = { words: new Set(), prefixes: [], always: false };
  for (const term of terms) {
    if (term.startsWith('re:')) {
      filter.always = true;
      continue;
    }
    const first =
      term
        .trim()
        .split(/\s+/)
        .find((t) => t !== '...') ?? '';
    const star = first.endsWith('*');
    const word = normalizeText(star ? first.slice(0, -1) : first).split(' ')[0] ?? '';
    if (word === '') {
      filter.always = true;
    } else if (star) {
      filter.prefixes.push(word);
    } else {
      filter.words.add(word);
      filter.words.add(`${word}s`);
      filter.words.add(`${word}es`);
      if (/[^aeiou]y$/.test(word)) filter.words.add(`${word.slice(0, -1)}ies`);
    }
  }
  return filter;
}
