import { fetchJson, fetchJsonWithHeaders, withQuery } from '@sprout/ui';
import type { AdminUserListItem, UserDetail, UserOverviewStats } from '@sprout/contracts';
import type { UserList } from './types';

/** The five stat cards of the Users screen. */
export function getUserStats(showTestUsers: boolean): Promise<UserOverviewStats> {
  return fetchJson<UserOverviewStats>(
    withQuery('/api/admin/users/stats/overview', { showTestUsers }),
    'Failed to fetch user stats',
  );
}

/**
 * The users of the chosen kind, most recently active first; `search` matches phone digits. The
 * total comes from X-Total-Count (the body is the spec's bare array).
 */
export async function getUsers(search: string, showTestUsers: boolean): Promise<UserList> {
  const { body: users, headers } = await fetchJsonWithHeaders<AdminUserListItem[]>(
    withQuery('/api/admin/users', { search: search.trim() || undefined, showTestUsers }),
    'Failed to fetch users',
  );
  const total = Number(headers.get('x-total-count'));
  return {
    users,
    total: Number.isFinite(total) && total > users.length ? total : users.length,
    totalIsCapped: headers.get('x-total-count-capped') === 'true',
  };
}

export function getUserDetail(id: string): Promise<UserDetail> {
  return fetchJson<UserDetail>(`/api/admin/users/${encodeURIComponent(id)}`, 'Failed to load user details');
}
