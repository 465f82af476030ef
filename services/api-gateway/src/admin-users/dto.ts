// Request schemas of the admin Users screen. Answers use @sprout/contracts (UserOverviewStats,
// AdminUserListItem, UserDetail). The contracts' own query schemas read any unknown boolean as
// false; these refuse it with a 400 instead, and bound the list.
import { z } from 'zod';

/**
 * A Test Data Mode switch: 'true' (or '1') means test users' data only; 'false', '0', empty or
 * absent means real users' data only. Any other value is a 400.
 */
export const testDataFlag = () =>
  z
    .enum(['true', 'false', '1', '0', ''], { error: 'must be true or false' })
    .optional()
    .transform((value) => value === 'true' || value === '1');

/** A whole number query parameter; empty or absent takes the default. */
export const wholeNumberParam = <D extends number | undefined>(defaultValue: D, min: number, max: number) =>
  z
    .string({ error: 'must be a whole number' })
    .optional()
    .transform((value, ctx): number | D => {
      if (value === undefined || value === '') return defaultValue;
      const parsed = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return parsed;
    });

/** Free-text search box: trimmed; empty means no search. */
export const searchParam = (max: number) =>
  z
    .string({ error: 'must be text' })
    .max(max, { error: `must be at most ${max} characters` })
    .optional()
    .transform((value) => value?.trim() ?? '');

/** Any 8-4-4-4-12 hex id, as Postgres stores uuids; `message` names it when it is a path parameter. */
export const uuidParam = (message = 'must be a UUID') => z.guid({ error: message });

export const USER_LIST_DEFAULT_LIMIT = 200;
export const USER_LIST_MAX_LIMIT = 500;
export const USER_SEARCH_MAX_LENGTH = 50;

export const UserStatsQuery = z.object({ showTestUsers: testDataFlag() });

export const UserListQuery = z.object({
  search: searchParam(USER_SEARCH_MAX_LENGTH),
  showTestUsers: testDataFlag(),
  /** The list holds the most recently active users first; the total count is in X-Total-Count. */
  limit: wholeNumberParam(USER_LIST_DEFAULT_LIMIT, 1, USER_LIST_MAX_LIMIT),
});

export const UserIdParam = uuidParam('User id must be a UUID');

/** Response headers of GET /api/admin/users (the body stays the spec's bare array). */
export const TOTAL_COUNT_HEADER = 'x-total-count';
/** 'true' when a search matched more users than were counted (X-Total-Count is then the cap). */
export const TOTAL_COUNT_CAPPED_HEADER = 'x-total-count-capped';
