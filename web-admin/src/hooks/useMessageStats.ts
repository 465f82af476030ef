import { useQuery } from '@tanstack/react-query';
import { getMessageStats } from '../api/conversations';
import { QueryKeys } from '../query-keys';
import { useTestDataMode } from './useTestDataMode';

export const MESSAGE_STATS_REFRESH_MS = 30_000;

export function useMessageStats() {
  const { showTestData } = useTestDataMode();
  return useQuery({
    queryKey: QueryKeys.messageStats(showTestData),
    queryFn: () => getMessageStats(showTestData),
    refetchInterval: MESSAGE_STATS_REFRESH_MS,
  });
}
