/** Characters of the GSM 03.38 default alphabet (basic set). */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Characters of the GSM 03.38 extension table (each costs two septets). */
const GSM7_EXTENDED = '^{}\\[~]|€\f';

const GSM7_SET = new Set([...GSM7_BASIC, ...GSM7_EXTENDED]);

/** Common non-GSM characters and the GSM-7 text that replaces them. */
const REPLACEMENTS: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u2032': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u2033': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u00A0': ' ',
  '\u2009': ' ',
  '\u202F': ' ',
  '\u00B0': ' deg',
  '\u00BD': '1/2',
  '\u00BC': '1/4',
  '\u00BE': '3/4',
  '\u2022': '-',
  '\u00D7': 'x',
  '\t': ' ',
};

/**
 * Whether every character of `text` is in the GSM-7 alphabet (basic or extension table), so an SMS
 * carrying it is encoded in 7-bit segments of 160 characters rather than UCS-2 segments of 70.
 */
export function isGsm7(text: string): boolean {
  for (const ch of text) {
    if (!GSM7_SET.has(ch)) return false;
  }
  return true;
}

/**
 * Rewrites `text` into GSM-7 characters: typographic quotes, dashes, ellipses and similar become
 * their plain equivalents, accented letters outside the alphabet lose their accents, and anything
 * else that has no equivalent (emoji, other scripts) is dropped.
 */
export function toGsm7(text: string): string {
  let out = '';
  for (const ch of text) {
    if (GSM7_SET.has(ch)) {
      out += ch;
      continue;
    }
    const replacement = REPLACEMENTS[ch];
    if (replacement !== undefined) {
      out += replacement;
      continue;
    }
    const stripped = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    if (stripped !== ch && [...stripped].every((c) => GSM7_SET.has(c))) out += stripped;
  }
  return out.replace(/ {2,}/g, ' ');
}

/**
 * Fits `text` into at most `maxChars` characters, cutting at the last sentence end that fits (or,
 * failing that, the last word boundary, with an ellipsis). Text that already fits is returned as is.
 */
export function fitToLength(text: string, maxChars: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= maxChars) return trimmed;
  const head = trimmed.slice(0, maxChars);
  const sentenceEnd = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  if (sentenceEnd >= maxChars * 0.5) return head.slice(0, sentenceEnd + 1);
  const cut = head.slice(0, maxChars - 3);
  const space = cut.lastIndexOf(' ');
  return `${(space > 0 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}...`;
}

/** Septets `text` takes in GSM-7 (extension-table characters take two); assumes isGsm7(text). */
export function gsm7Length(text: string): number {
  let septets = 0;
  for (const ch of text) septets += GSM7_EXTENDED.includes(ch) ? 2 : 1;
  return septets;
}
