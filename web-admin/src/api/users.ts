import { fetchJson, withQuery } from '@sprout/ui';
import type { AdminUserListItem, UserDetail, UserOverviewStats } from '@sprout/contracts';

/** The five stat cards of the Users screen. */
export function getUserStats(showTestUsers: boolean): Promise<UserOverviewStats> {
  return fetchJson<UserOverviewStats>(
    withQuery('/api/admin/users/stats/overview', { showTestUsers }),
    'Failed to fetch user stats',
  );
}

/** The users of the chosen kind, most recently active first; `search` matches phone digits. */
export function getUsers(search: string, showTestUsers: boolean): Promise<AdminUserListItem[]> {
  return fetchJson<AdminUserListItem[]>(
    withQuery('/api/admin/users', { search: search.trim() || undefined, showTestUsers }),
    'Failed to fetch users',
  );
}

export function getUserDetail(id: string): Promise<UserDetail> {
  return fetchJson<UserDetail>(`/api/admin/users/${encodeURIComponent(id)}`, 'Failed to load user details');
}
