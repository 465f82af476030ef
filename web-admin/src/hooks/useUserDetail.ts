import { useQuery } from '@tanstack/react-query';
import { getUserDetail } from '../api/users';
import { QueryKeys } from '../query-keys';

export const USER_DETAIL_REFRESH_MS = 5_000;

/** The selected user, polled while selected; nothing is fetched without an id. */
export function useUserDetail(userId: string | null) {
  return useQuery({
    queryKey: QueryKeys.userDetail(userId ?? ''),
    queryFn: () => getUserDetail(userId ?? ''),
    enabled: userId !== null,
    refetchInterval: USER_DETAIL_REFRESH_MS,
  });
}
