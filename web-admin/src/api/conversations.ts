import { apiJson, fetchJson, withQuery } from '@sprout/ui';
import type { CheckDeliveryResponse, ConversationMessage } from '@sprout/contracts';
import type { ConversationPage } from './types';

/** Conversation page size of the Messages screen (spec 000 §9). */
export const CONVERSATION_PAGE_SIZE = 20;

const conversationsFailed = 'Failed to fetch conversations';

/** One page of conversations, newest activity first; `search` matches phone, summary, region, topics. */
export function getConversations(
  page: number,
  search: string,
  showTestData: boolean,
): Promise<ConversationPage> {
  return fetchJson<ConversationPage>(
    withQuery('/api/admin/conversations', {
      page,
      limit: CONVERSATION_PAGE_SIZE,
      search: search.trim() || undefined,
      showTestData,
    }),
    conversationsFailed,
  );
}

/** One user's conversations (the user panel). */
export function getUserConversations(userId: string): Promise<ConversationPage> {
  return fetchJson<ConversationPage>(
    withQuery('/api/admin/conversations', { userId, showTestData: false }),
    conversationsFailed,
  );
}

/** The conversation's messages, oldest first. */
export function getConversationMessages(
  conversationId: string,
  showTestData: boolean,
): Promise<ConversationMessage[]> {
  return fetchJson<ConversationMessage[]>(
    withQuery(`/api/admin/conversations/${encodeURIComponent(conversationId)}/messages`, { showTestData }),
    'Failed to fetch conversation messages',
  );
}

/** Asks the SMS provider again for the delivery status of the conversation's messages. */
export function checkDelivery(conversationId: string): Promise<CheckDeliveryResponse> {
  return apiJson<CheckDeliveryResponse>(
    'POST',
    `/api/admin/conversations/${encodeURIComponent(conversationId)}/check-delivery`,
    {},
  );
}
