import { useQuery } from '@tanstack/react-query';
import { getConversationMessages } from '../api/conversations';
import { QueryKeys } from '../query-keys';
import { useTestDataMode } from './useTestDataMode';

export const CONVERSATION_MESSAGES_REFRESH_MS = 30_000;

/** The selected conversation's messages; nothing is fetched without an id. */
export function useConversationMessages(conversationId: string | null) {
  const { showTestData } = useTestDataMode();
  return useQuery({
    queryKey: QueryKeys.conversationMessages(conversationId ?? '', showTestData),
    queryFn: () => getConversationMessages(conversationId ?? '', showTestData),
    enabled: conversationId !== null,
    refetchInterval: CONVERSATION_MESSAGES_REFRESH_MS,
  });
}
