import { z } from 'zod';

// The building blocks of path parameters and query strings. On the wire every value is text; the
// web apps may pass booleans and numbers, which their client writes as text. One behaviour
// everywhere: a value these schemas do not know is a 400, never silently read as something else.

/**
 * The Test Data Mode switch (`showTestData`, `showTestUsers`): true or '1' means test users' data
 * only; false, '0', empty or absent means real users' data only. Anything else is a 400.
 */
export const testDataFlag = () =>
  z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])], { error: 'must be true or false' })
    .optional()
    .transform((value) => value === true || value === 'true' || value === '1');

/** The one test-data query of admin screens that read real or test data. */
export const TestDataQuery = z.object({ showTestData: testDataFlag() });
export type TestDataQuery = z.output<typeof TestDataQuery>;

/** A whole number in a query string; empty or absent takes the default. */
export const wholeNumberParam = <D extends number | undefined>(defaultValue: D, min: number, max: number) =>
  z
    .union([z.number(), z.string()], { error: 'must be a whole number' })
    .optional()
    .transform((value, ctx): number | D => {
      if (value === undefined || value === '') return defaultValue;
      const parsed = typeof value === 'number' ? value : /^\d{1,9}$/.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return parsed;
    });

// Text Postgres refuses: NUL (text columns) and a UTF-16 half of a pair without the other (jsonb
// refuses its \ud800 escape). Typed fields refuse it with a 400; texts that must not be lost (an
// SMS, Twilio's form) are cleaned with storableText instead.
const LONE_SURROGATE = String.raw`[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]`;
const UNSTORABLE = new RegExp(String.raw`\u0000|${LONE_SURROGATE}`);

export const UNSTORABLE_TEXT = 'must not contain NUL or invalid characters';

/** Whether Postgres can store the text as it is (no NUL, no unpaired surrogate). */
export const isStorableText = (value: string): boolean => !UNSTORABLE.test(value);

/** The text with NUL removed and each unpaired surrogate replaced by U+FFFD: storable, nothing else changed. */
export const storableText = (value: string): string =>
  value.replaceAll('\u0000', '').replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD');

/**
 * A text field someone typed: a string (else `error`) that Postgres can store, else a 400
 * (UNSTORABLE_TEXT). Chain `.trim()`, `.min()`, `.max()` as on z.string().
 */
export const textField = (error: string = 'must be text') =>
  z.string({ error }).refine(isStorableText, { error: UNSTORABLE_TEXT, abort: true });

/** A free-text search box: trimmed; empty means no search. */
export const searchParam = (max: number) =>
  textField()
    .max(max, { error: `must be at most ${max} characters` })
    .optional()
    .transform((value) => value?.trim() ?? '');

/** Any 8-4-4-4-12 hex id, as Postgres stores uuids. */
export const uuidParam = (message = 'must be a UUID') => z.guid({ error: message });

/** `{ id }` path parameters, with the sentence a bad id answers. */
export const idParams = (message: string) => z.object({ id: uuidParam(message) });
