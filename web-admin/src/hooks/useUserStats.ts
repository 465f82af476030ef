import { useQuery } from '@tanstack/react-query';
import { getUserStats } from '../api/users';
import { QueryKeys } from '../query-keys';
import { useTestDataMode } from './useTestDataMode';

export const USER_STATS_REFRESH_MS = 30_000;

export function useUserStats() {
  const { showTestData } = useTestDataMode();
  const query = { showTestUsers: showTestData };
  return useQuery({
    queryKey: QueryKeys.userStats(query),
    queryFn: () => getUserStats(query),
    refetchInterval: USER_STATS_REFRESH_MS,
  });
}
