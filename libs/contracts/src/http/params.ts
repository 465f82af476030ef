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

/** A free-text search box: trimmed; empty means no search. */
export const searchParam = (max: number) =>
  z
    .string({ error: 'must be text' })
    .max(max, { error: `must be at most ${max} characters` })
    .optional()
    .transform((value) => value?.trim() ?? '');

/** Any 8-4-4-4-12 hex id, as Postgres stores uuids. */
export const uuidParam = (message = 'must be a UUID') => z.guid({ error: message });

/** `{ id }` path parameters, with the sentence a bad id answers. */
export const idParams = (message: string) => z.object({ id: uuidParam(message) });
