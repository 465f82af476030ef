/**
 * A light English stemmer for the advisor's index: plurals, -ing and -ed, and a final e, so
 * "pruned", "pruning" and "prune" meet at "prun" and "berries" at "berry". Irregular forms
 * ("leaves", "mice") come from the language data file and are looked up before it runs.
 */
const VOWEL = /[aeiouy]/;
const DOUBLED = /([^aeiouylsz])\1$/;

export function stem(word: string, irregular?: ReadonlyMap<string, string>): string {
  const mapped = irregular?.get(word);
  if (mapped !== undefined) return mapped;
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:ch|sh|x|z|o)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is|ys)$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    if (!w.endsWith(suffix)) continue;
    const base = w.slice(0, -suffix.length);
    if (base.length >= (suffix === 'ed' ? 4 : 3) && VOWEL.test(base)) {
      w = DOUBLED.test(base) ? base.slice(0, -1) : base;
    }
    break;
  }
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}
