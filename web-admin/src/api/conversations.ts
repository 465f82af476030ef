import { callEndpoint } from '@sprout/ui';
import {
  CONVERSATION_PAGE_SIZE,
  type CheckDeliveryResponse,
  type ConversationListResponse,
  type ConversationMessage,
  type EndpointRequest,
  type MessageStats,
  api,
  endpointUrl,
} from '@sprout/contracts';

export { CONVERSATION_PAGE_SIZE };

export type ConversationListQuery = NonNullable<EndpointRequest<typeof api.conversations.list>['query']>;

const conversationsFailed = 'Failed to fetch conversations';

/** One page of conversations, newest activity first; `search` matches phone, summary, region, topics. */
export function getConversations(query: ConversationListQuery): Promise<ConversationListResponse> {
  return callEndpoint(api.conversations.list, { query }, { failureMessage: conversationsFailed });
}

/** The conversation's messages, oldest first. */
export function getConversationMessages(id: string, showTestData: boolean): Promise<ConversationMessage[]> {
  return callEndpoint(
    api.conversations.messages,
    { params: { id }, query: { showTestData } },
    { failureMessage: 'Failed to fetch conversation messages' },
  );
}

/** Asks the SMS provider again for the delivery status of the conversation's messages. */
export function checkDelivery(id: string): Promise<CheckDeliveryResponse> {
  return callEndpoint(api.conversations.checkDelivery, { params: { id }, body: {} });
}

/** The four stat cards of the Messages screen. */
export function getMessageStats(showTestData: boolean): Promise<MessageStats> {
  return callEndpoint(
    api.conversations.messageStats,
    { query: { showTestData } },
    { failureMessage: 'Failed to fetch message stats' },
  );
}

/** The CSV download of the conversations list, with its search and test-data choice. */
export function conversationsExportUrl(search: string, showTestData: boolean): string {
  return endpointUrl(api.conversations.export, {
    query: { ...(search.trim() ? { search: search.trim() } : {}), showTestData },
  });
}

/** The CSV download of a user's conversations with their messages. */
export function userConversationsExportUrl(userId: string): string {
  return endpointUrl(api.conversations.exportUser, { params: { id: userId } });
}
