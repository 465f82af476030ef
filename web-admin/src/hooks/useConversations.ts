import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CONVERSATION_PAGE_SIZE, getConversations } from '../api/conversations';
import { QueryKeys } from '../query-keys';
import { useTestDataMode } from './useTestDataMode';

export const CONVERSATIONS_REFRESH_MS = 30_000;

/**
 * One page of the Messages screen's conversation list: the first, or the one after `cursor` (the
 * previous page's pagination.nextCursor; `page` is then the number shown). The previous page
 * stays while the next loads.
 */
export function useConversations(page: number, cursor: string | null, search: string) {
  const { showTestData } = useTestDataMode();
  const query = {
    page,
    limit: CONVERSATION_PAGE_SIZE,
    search: search.trim() || undefined,
    showTestData,
    ...(cursor === null ? {} : { cursor }),
  };
  return useQuery({
    queryKey: QueryKeys.conversations(query),
    queryFn: () => getConversations(query),
    refetchInterval: CONVERSATIONS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}
