/** The most of a message analysed: Twilio's longest SMS Body. */
export const ANALYSIS_MAX_CHARS = 1600;

/**
 * The part of a message that is analysed: its first ANALYSIS_MAX_CHARS characters. No SMS is
 * longer, and the cap bounds what one message costs the analyses that are not linear in length
 * (location, language, validation, the offline advisor).
 */
export function analysisWindow(text: string): string {
  return text.length <= ANALYSIS_MAX_CHARS ? text : text.slice(0, ANALYSIS_MAX_CHARS);
}

/** Number of whitespace-separated words in `text` (the count the testers display). */
export function wordCount(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

/** Normalises typographic apostrophes and quotes and collapses whitespace. */
export function normalizeText(text: string): string {
  return text
    .replace(/[\u2018\u2019\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u2033]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Edit distance counting insertions, deletions, substitutions and swaps of adjacent letters
 * ("pheonix" -> "phoenix" is 1). Stops early once it exceeds `max` (then returns max + 1).
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (prevPrev[j - 2] ?? 0) + 1);
      }
      cur.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    prevPrev = prev;
    prev = cur;
  }
  return prev[b.length] ?? max + 1;
}
