import { callEndpoint, callEndpointWithHeaders } from '@sprout/ui';
import {
  type AdminUserListItem,
  type EndpointRequest,
  USER_TOTAL_COUNT_CAPPED_HEADER,
  USER_TOTAL_COUNT_HEADER,
  type UserDetail,
  type UserOverviewStats,
  api,
} from '@sprout/contracts';

/**
 * GET /api/admin/users as the screen uses it: the users (the most recently active first, at most
 * the API's limit) and the X-Total-Count header, the number of users of the chosen kind or of
 * search matches (capped when X-Total-Count-Capped is 'true').
 */
export interface UserList {
  users: AdminUserListItem[];
  total: number;
  totalIsCapped: boolean;
}

export type UserStatsQuery = NonNullable<EndpointRequest<typeof api.users.stats>['query']>;
export type UserListQuery = NonNullable<EndpointRequest<typeof api.users.list>['query']>;

/** The five stat cards of the Users screen. */
export function getUserStats(query: UserStatsQuery): Promise<UserOverviewStats> {
  return callEndpoint(api.users.stats, { query }, { failureMessage: 'Failed to fetch user stats' });
}

/**
 * The users of the chosen kind, most recently active first; `search` matches phone digits. The
 * total comes from X-Total-Count (the body is the spec's bare array).
 */
export async function getUsers(query: UserListQuery): Promise<UserList> {
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
  };
}

export function getUserDetail(id: string): Promise<UserDetail> {
  return callEndpoint(
    api.users.detail,
    { params: { id } },
    { failureMessage: 'Failed to load user details' },
  );
}
