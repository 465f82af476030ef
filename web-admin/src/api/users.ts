import { callEndpoint, callEndpointWithHeaders } from '@sprout/ui';
import {
  type AdminUserListItem,
  type EndpointRequest,
  endpointUrl,
  USER_NEXT_CURSOR_HEADER,
  USER_TOTAL_COUNT_CAPPED_HEADER,
  USER_TOTAL_COUNT_HEADER,
  type UserDetail,
  type UserOverviewStats,
  api,
} from '@sprout/contracts';

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

export type UserStatsQuery = NonNullable<EndpointRequest<typeof api.users.stats>['query']>;
export type UserListQuery = NonNullable<EndpointRequest<typeof api.users.list>['query']>;

/** The five stat cards of the Users screen. */
export function getUserStats(query: UserStatsQuery): Promise<UserOverviewStats> {
  return callEndpoint(api.users.stats, { query }, { failureMessage: 'Failed to fetch user stats' });
}

/**
 * A page of users, sorted and searched on the server (`search` matches phone digits); `cursor` is
 * the previous page's nextCursor. The body is the spec's bare array, the rest comes in headers.
 */
export async function getUsers(query: UserListQuery): Promise<UserPage> {
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

export function getUserDetail(id: string): Promise<UserDetail> {
  return callEndpoint(
    api.users.detail,
    { params: { id } },
    { failureMessage: 'Failed to load user details' },
  );
}

export type UserExportQuery = NonNullable<EndpointRequest<typeof api.users.export>['query']>;

/** The CSV download of the users the table lists: its search, test-data choice, sort and order. */
export function usersExportUrl(query: UserExportQuery): string {
  return endpointUrl(api.users.export, { query });
}
