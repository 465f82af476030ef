import type { AdminUserListItem } from '@sprout/contracts';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getUsers, type UserPage } from '../api/users';
import type { UserSort } from '../pages/users/user-sorting';
import { QueryKeys } from '../query-keys';
import { useTestDataMode } from './useTestDataMode';

export const USERS_REFRESH_MS = 10_000;
/** Rows fetched at a time as the table scrolls. */
const USERS_PAGE_SIZE = 100;

/**
 * The loaded pages as one list: a user who moved between pages since they were fetched (the
 * polling refetches page after page) is listed once, where first met.
 */
export function mergeUserPages(pages: readonly UserPage[]): AdminUserListItem[] {
  const seen = new Set<string>();
  const users: AdminUserListItem[] = [];
  for (const page of pages)
    for (const user of page.users) {
      if (seen.has(user.id)) continue;
      seen.add(user.id);
      users.push(user);
    }
  return users;
}

/**
 * The user table, sorted and searched on the server, a page at a time (keyset cursors). The poll
 * refetches every loaded page, so the rows shown stay as many and current; the previous answer
 * stays on screen while a new search or sort loads.
 */
export function useUsers(search: string, sort: UserSort) {
  const { showTestData } = useTestDataMode();
  const query = {
    search: search.trim() || undefined,
    showTestUsers: showTestData,
    sort: sort.key,
    order: sort.direction,
  };
  const result = useInfiniteQuery({
    queryKey: QueryKeys.users(query),
    queryFn: ({ pageParam }) =>
      getUsers({ ...query, limit: USERS_PAGE_SIZE, ...(pageParam === '' ? {} : { cursor: pageParam }) }),
    initialPageParam: '',
    getNextPageParam: (last: UserPage) => last.nextCursor ?? undefined,
    refetchInterval: USERS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const pages = result.data?.pages;
  const users = useMemo(() => (pages === undefined ? undefined : mergeUserPages(pages)), [pages]);
  const first = pages?.[0];
  return {
    ...result,
    users,
    total: first?.total ?? 0,
    totalIsCapped: first?.totalIsCapped ?? false,
  };
}
