import { useQuery } from '@tanstack/react-query';
import { getTestUsers } from '../api/simulator';
import { QueryKeys } from '../query-keys';

/** The simulator's test users list refreshes every 5 s (spec 001 §9). */
export const TEST_USERS_REFRESH_MS = 5_000;

export function useTestUsers() {
  return useQuery({
    queryKey: QueryKeys.testUsers,
    queryFn: getTestUsers,
    refetchInterval: TEST_USERS_REFRESH_MS,
  });
}
