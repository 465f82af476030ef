// SMS encoding and segment arithmetic per GSM 03.38 (7-bit default alphabet) and UCS-2.

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsAnalysis {
  encoding: SmsEncoding;
  /** Septets for GSM-7 (extension characters count 2), UTF-16 code units for UCS-2. */
  length: number;
  segments: number;
}

// GSM 03.38 basic character set (the escape code 0x1B excluded).
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
// Extension table: each is sent as ESC + char, so it costs two septets.
const GSM7_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

export const GSM7_SINGLE_SEGMENT = 160;
export const GSM7_MULTI_SEGMENT = 153; // 7 septets go to the concatenation header
export const UCS2_SINGLE_SEGMENT = 70;
export const UCS2_MULTI_SEGMENT = 67;

/** Septets a character needs in GSM-7, or null when it is not in the alphabet. */
function gsmSeptets(char: string): 1 | 2 | null {
  if (BASIC.has(char)) return 1;
  if (EXTENSION.has(char)) return 2;
  return null;
}

export function isGsm7(text: string): boolean {
  for (const char of text) {
    if (gsmSeptets(char) === null) return false;
  }
  return true;
}

/**
 * Packs units into segments without splitting one: an escape sequence (GSM-7) or a surrogate
 * pair (UCS-2) never straddles two segments, so a long text can need one more segment than
 * a plain division suggests.
 */
function countSegments(units: readonly number[], total: number, single: number, multi: number): number {
  if (total <= single) return 1;
  let segments = 1;
  let used = 0;
  for (const size of units) {
    if (used + size > multi) {
      segments += 1;
      used = 0;
    }
    used += size;
  }
  return segments;
}

export function analyzeSms(text: string): SmsAnalysis {
  const gsmUnits: number[] = [];
  let gsm = true;
  for (const char of text) {
    const septets = gsmSeptets(char);
    if (septets === null) {
      gsm = false;
      break;
    }
    gsmUnits.push(septets);
  }
  if (gsm) {
    const length = gsmUnits.reduce((sum, n) => sum + n, 0);
    return {
      encoding: 'GSM-7',
      length,
      segments: countSegments(gsmUnits, length, GSM7_SINGLE_SEGMENT, GSM7_MULTI_SEGMENT),
    };
  }
  // UCS-2 as carriers send it is UTF-16: astral characters (emoji) take a surrogate pair.
  const ucsUnits = Array.from(text, (char) => char.length);
  return {
    encoding: 'UCS-2',
    length: text.length,
    segments: countSegments(ucsUnits, text.length, UCS2_SINGLE_SEGMENT, UCS2_MULTI_SEGMENT),
  };
}

const GSM7_REPLACEMENTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032\u0060\u00B4]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-'],
  [/\u2026/g, '...'],
  [/[\u00A0\u2000-\u200A\u202F\u205F\u3000\t]/g, ' '],
  [/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, ''],
  [/[\u2022\u00B7]/g, '-'],
  [/\u2039/g, '<'],
  [/\u203A/g, '>'],
  [/\r\n/g, '\n'],
];

/**
 * Replaces typographic characters (curly quotes, dashes, ellipsis, non-breaking and other
 * special spaces, bullets) with GSM-7 equivalents, so a reply written by a model does not fall
 * back to UCS-2 (and 70-character segments) over a single apostrophe.
 */
export function toGsm7(text: string): string {
  let out = text;
  for (const [pattern, replacement] of GSM7_REPLACEMENTS) out = out.replace(pattern, replacement);
  return out;
}

function fits(text: string, maxSegments: number): boolean {
  return analyzeSms(text).segments <= maxSegments;
}

/** Longest prefix length (in UTF-16 units, never inside a surrogate pair) that fits. */
function longestFittingPrefix(text: string, maxSegments: number): number {
  const boundaries: number[] = [0];
  let index = 0;
  for (const char of text) {
    index += char.length;
    boundaries.push(index);
  }
  let low = 0;
  let high = boundaries.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(text.slice(0, boundaries[mid]), maxSegments)) low = mid;
    else high = mid - 1;
  }
  return boundaries[low] ?? 0;
}

const ELLIPSIS = '...';

/**
 * Fits a reply into at most `maxSegments` SMS segments. Typography is mapped to GSM-7 first, so
 * the text stays GSM-7 unless it truly needs UCS-2 (emoji, non-Latin scripts). A text that is
 * too long is cut after the last complete sentence that fits; when no sentence end fits it is
 * cut at the last word boundary and marked with "...". It is never cut inside a word, except for
 * a single "word" longer than the whole allowance, which has no boundary to cut at.
 */
export function fitToSms(text: string, maxSegments: number): string {
  if (!Number.isInteger(maxSegments) || maxSegments < 1) {
    throw new RangeError(`maxSegments must be a positive integer, got ${maxSegments}`);
  }
  const clean = toGsm7(text).trim();
  if (fits(clean, maxSegments)) return clean;

  const limit = longestFittingPrefix(clean, maxSegments);

  // Sentence end: . ! ? (optionally followed by closing quotes or brackets) then whitespace.
  const sentenceEnd = /[.!?]+["')\]]*(?=\s)/g;
  let bestSentence = 0;
  for (const match of clean.matchAll(sentenceEnd)) {
    const end = match.index + match[0].length;
    if (end > limit) break;
    bestSentence = end;
  }
  if (bestSentence > 0) return clean.slice(0, bestSentence).trimEnd();

  // Word boundary, leaving room for the ellipsis.
  const withEllipsis = longestFittingPrefix(clean + ELLIPSIS, maxSegments);
  const room = Math.min(limit, withEllipsis - ELLIPSIS.length);
  for (let i = room; i > 0; i -= 1) {
    if (/\s/.test(clean.charAt(i))) {
      const head = clean
        .slice(0, i)
        .trimEnd()
        .replace(/[,;:-]+$/, '');
      if (head.length > 0 && fits(head + ELLIPSIS, maxSegments)) return head + ELLIPSIS;
    }
  }
  return clean.slice(0, limit);
}
