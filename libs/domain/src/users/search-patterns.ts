// How the admin screens turn a search box into index-friendly LIKE patterns.

/** Characters people type in a phone number besides digits. */
const PHONE_LIKE = /^[\d\s+().-]+$/;

/** LIKE pattern for a literal substring (backslash is LIKE's default escape). */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface PhonePattern {
  /** For `phone_number LIKE pattern`. */
  pattern: string;
  /** true: an E.164 prefix (the text_pattern_ops btree); false: a digit substring (the trigram index). */
  prefix: boolean;
  digits: string;
}

/**
 * The phone numbers a search means, matched on digits only: "+1 (503) 555" is the E.164 prefix
 * +1503555; "503555" or "555-0123" is a digit substring anywhere in the number. Null when the
 * text cannot be part of a phone number (letters, or no digit at all).
 */
export const phonePattern = (search: string): PhonePattern | null => {
  const text = search.trim();
  if (!PHONE_LIKE.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  if (digits.length === 0) return null;
  return text.startsWith('+')
    ? { pattern: `+${digits}%`, prefix: true, digits }
    : { pattern: `%${digits}%`, prefix: false, digits };
};

/** pg_trgm indexes need at least three characters to narrow a substring search. */
export const TRIGRAM_MIN_LENGTH = 3;
