// Phone numbers never reach the logs unmasked: E.164 numbers, bare 10/11-digit US numbers and
// common US formats keep only enough digits to tell numbers apart (+15035550123 -> +1503***0123).

const E164 = /\+[1-9]\d{9,14}(?!\d)/g;
const BARE_US = /(?<![\w+])1?\d{10}(?![\d])/g;
const FORMATTED_US = /(?<![\w+])(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}(?!\d)/g;

const maskDigits = (value: string, keepStart: number): string => {
  const digits = value.replace(/\D/g, '');
  const plus = value.trimStart().startsWith('+') ? '+' : '';
  return `${plus}${digits.slice(0, keepStart)}***${digits.slice(-4)}`;
};

export const maskPhoneNumbers = (text: string): string =>
  text
    .replace(E164, (m) => maskDigits(m, 4))
    .replace(FORMATTED_US, (m) => maskDigits(m, m.replace(/\D/g, '').length === 11 ? 4 : 3))
    .replace(BARE_US, (m) => maskDigits(m, m.length === 11 ? 4 : 3));

/** Deep copy with every string masked; cycles and depth are bounded so logging never throws. */
export const maskPhoneNumbersDeep = (value: unknown, depth = 0, seen = new WeakSet<object>()): unknown => {
  if (typeof value === 'string') return maskPhoneNumbers(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '[depth limit]';
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (value instanceof Error) {
    const masked: Record<string, unknown> = {
      type: value.name,
      message: maskPhoneNumbers(value.message),
      stack: value.stack === undefined ? undefined : maskPhoneNumbers(value.stack),
    };
    for (const [key, inner] of Object.entries(value))
      masked[key] = maskPhoneNumbersDeep(inner, depth + 1, seen);
    return masked;
  }
  if (value instanceof Date) return value;
  if (Buffer.isBuffer(value)) return `[buffer ${value.length} bytes]`;
  if (Array.isArray(value)) return value.map((item) => maskPhoneNumbersDeep(item, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = maskPhoneNumbersDeep(inner, depth + 1, seen);
  return out;
};
