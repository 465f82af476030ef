import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getUsers } from '../api/users';
import { QueryKeys } from '../query-keys';
import { useTestDataMode } from './useTestDataMode';

export const USERS_REFRESH_MS = 10_000;

/** The user table; the previous answer stays on screen while a new search loads. */
export function useUsers(search: string) {
  const { showTestData } = useTestDataMode();
  const query = { search: search.trim() || undefined, showTestUsers: showTestData };
  return useQuery({
    queryKey: QueryKeys.users(query),
    queryFn: () => getUsers(query),
    refetchInterval: USERS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}
