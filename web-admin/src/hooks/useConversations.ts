import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getConversations } from '../api/conversations';
import { QueryKeys } from '../query-keys';
import { useTestDataMode } from './useTestDataMode';

export const CONVERSATIONS_REFRESH_MS = 30_000;

/** One page of the Messages screen's conversation list; the previous page stays while the next loads. */
export function useConversations(page: number, search: string) {
  const { showTestData } = useTestDataMode();
  const term = search.trim();
  return useQuery({
    queryKey: QueryKeys.conversations(page, term, showTestData),
    queryFn: () => getConversations(page, term, showTestData),
    refetchInterval: CONVERSATIONS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}
