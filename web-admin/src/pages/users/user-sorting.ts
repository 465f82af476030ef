import type { AdminUserListItem } from '@sprout/contracts';
import { ENGAGEMENT_ORDER, engagementLevel, SENTIMENT_ORDER, sentimentLabel } from './engagement';

// Sorting of the user table (spec 000 §4): the first click on a column sorts ascending, clicking
// the same column again toggles; the default is last message, newest first.

export type UserSortKey =
  | 'phoneNumber'
  | 'region'
  | 'isActive'
  | 'totalMessages'
  | 'engagement'
  | 'sentiment'
  | 'totalCost'
  | 'profileCompletionScore'
  | 'createdAt'
  | 'lastMessageAt';

export type SortDirection = 'asc' | 'desc';

export interface UserSort {
  key: UserSortKey;
  direction: SortDirection;
}

export const DEFAULT_USER_SORT: UserSort = { key: 'lastMessageAt', direction: 'desc' };

/** The sort after a click on `key`. */
export function nextUserSort(current: UserSort, key: UserSortKey): UserSort {
  if (current.key !== key) return { key, direction: 'asc' };
  return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}

type SortValue = number | string | null;

function time(value: string | null): number | null {
  if (value === null) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

function text(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** The value a column sorts by; null (no value) always sorts last. */
export function userSortValue(user: AdminUserListItem, key: UserSortKey): SortValue {
  switch (key) {
    case 'phoneNumber':
      return user.phoneNumber;
    case 'region':
      return text(user.profile.region);
    case 'isActive':
      return user.isActive ? 1 : 0;
    case 'totalMessages':
      return user.analytics.totalMessages;
    case 'engagement':
      return ENGAGEMENT_ORDER.indexOf(engagementLevel(user.analytics.totalMessages));
    case 'sentiment':
      return SENTIMENT_ORDER.indexOf(sentimentLabel(user.analytics.averageSentiment));
    case 'totalCost':
      return user.analytics.totalCost;
    case 'profileCompletionScore':
      return user.profileCompletionScore;
    case 'createdAt':
      return time(user.createdAt);
    case 'lastMessageAt':
      return time(user.lastMessageAt);
  }
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/**
 * The users in the given order. Users without a value for the column come last either way; ties
 * keep the phone number order so rows do not jump between polls.
 */
export function sortUsers(users: readonly AdminUserListItem[], sort: UserSort): AdminUserListItem[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...users].sort((x, y) => {
    const a = userSortValue(x, sort.key);
    const b = userSortValue(y, sort.key);
    if (a === null || b === null) {
      if (a !== b) return a === null ? 1 : -1;
    } else {
      const order = compareValues(a, b);
      if (order !== 0) return sign * order;
    }
    return collator.compare(x.phoneNumber, y.phoneNumber) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
  });
}
