import type { UserSortKey, UserSortOrder } from '@sprout/contracts';

// Sorting of the user table: the first click on a column sorts ascending, clicking
// the same column again toggles; the default is last message, newest first. The server sorts
// every user (GET /api/admin/users sort, order); sentiment and engagement by level, not alphabetically.

export type { UserSortKey };
type SortDirection = UserSortOrder;

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
