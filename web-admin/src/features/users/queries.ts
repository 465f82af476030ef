import {
  type AdminUserListItem,
  type EndpointRequest,
  USER_NEXT_CURSOR_HEADER,
  USER_TOTAL_COUNT_CAPPED_HEADER,
  USER_TOTAL_COUNT_HEADER,
  api,
  endpointKey,
} from '@sprout/contracts';
import { callEndpointWithHeaders, endpointQuery } from '@sprout/ui';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTestDataMode } from '../../test-data-mode';
import { conversationListQuery } from '../messages/queries';
import type { UserSort } from './user-sorting';

const USERS_REFRESH_MS = 10_000;
const USER_STATS_REFRESH_MS = 30_000;
const USER_DETAIL_REFRESH_MS = 5_000;
/** Rows fetched at a time as the table scrolls. */
const USERS_PAGE_SIZE = 100;

/** The five stat cards of the Users screen. */
export const userStatsQuery = (showTestUsers: boolean) => ({
  ...endpointQuery(
    api.users.stats,
    { query: { showTestUsers } },
    { failureMessage: 'Failed to fetch user stats' },
  ),
  refetchInterval: USER_STATS_REFRESH_MS,
});

/** The selected user, polled while selected. */
export const userDetailQuery = (id: string) => ({
  ...endpointQuery(api.users.detail, { params: { id } }, { failureMessage: 'Failed to load user details' }),
  refetchInterval: USER_DETAIL_REFRESH_MS,
});

/**
 * The selected user's conversations for the user panel. The call carries showTestData=false;
 * the API lists a user's own conversations whatever the flag, so a test user's
 * panel shows theirs too.
 */
export const userConversationsQuery = (userId: string) =>
  conversationListQuery({ userId, showTestData: false });

/**
 * One page of GET /api/admin/users as the screen uses it: the users in the chosen order, the
 * X-Total-Count header (users of the chosen kind, or search matches, capped when
 * X-Total-Count-Capped is 'true') and X-Next-Cursor (null on the last page).
 */
export interface UserPage {
  users: AdminUserListItem[];
  total: number;
  totalIsCapped: boolean;
  nextCursor: string | null;
}

type UserListQuery = NonNullable<EndpointRequest<typeof api.users.list>['query']>;

/** A page of users; the body is a bare array, the rest comes in headers. */
async function getUserPage(query: UserListQuery): Promise<UserPage> {
  const { body: users, headers } = await callEndpointWithHeaders(
    api.users.list,
    { query },
    { failureMessage: 'Failed to fetch users' },
  );
  const total = Number(headers.get(USER_TOTAL_COUNT_HEADER));
  return {
    users,
    total: Number.isFinite(total) && total > users.length ? total : users.length,
    totalIsCapped: headers.get(USER_TOTAL_COUNT_CAPPED_HEADER) === 'true',
    nextCursor: headers.get(USER_NEXT_CURSOR_HEADER),
  };
}

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

/** The user table's query: its search (phone digits), Test Data Mode and order. */
export const userListQuery = (search: string, showTestUsers: boolean, sort: UserSort): UserListQuery => ({
  search: search.trim() || undefined,
  showTestUsers,
  sort: sort.key,
  order: sort.direction,
});

/**
 * The user table, sorted and searched on the server, a page at a time (keyset cursors). The poll
 * refetches every loaded page, so the rows shown stay as many and current; the previous answer
 * stays on screen while a new search or sort loads.
 */
export function useUserList(search: string, sort: UserSort) {
  const query = userListQuery(search, useTestDataMode().showTestData, sort);
  const result = useInfiniteQuery({
    queryKey: endpointKey(api.users.list, { query }),
    queryFn: ({ pageParam }) =>
      getUserPage({ ...query, limit: USERS_PAGE_SIZE, ...(pageParam === '' ? {} : { cursor: pageParam }) }),
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
