import { CONVERSATION_PAGE_SIZE, type EndpointRequest, api } from '@sprout/contracts';
import { endpointMutation, endpointQuery, invalidateEndpoint } from '@sprout/ui';
import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { messagesTexts } from './texts';

const CONVERSATIONS_REFRESH_MS = 30_000;
const CONVERSATION_MESSAGES_REFRESH_MS = 30_000;
const MESSAGE_STATS_REFRESH_MS = 30_000;

type ConversationListQuery = NonNullable<EndpointRequest<typeof api.messages.list>['query']>;

/** Conversations, newest activity first; `search` matches phone, summary, region, topics. */
export const conversationListQuery = (query: ConversationListQuery) =>
  endpointQuery(api.messages.list, { query }, { failureMessage: messagesTexts.conversationsFailed });

/**
 * One page of the Messages screen's list: the first, or the one after `cursor` (the previous
 * page's pagination.nextCursor; `page` is then the number shown). The previous page stays while
 * the next loads.
 */
export const conversationPageQuery = (
  page: number,
  cursor: string | null,
  search: string,
  showTestData: boolean,
) => ({
  ...conversationListQuery({
    page,
    limit: CONVERSATION_PAGE_SIZE,
    search: search.trim() || undefined,
    showTestData,
    ...(cursor === null ? {} : { cursor }),
  }),
  refetchInterval: CONVERSATIONS_REFRESH_MS,
  placeholderData: keepPreviousData,
});

/** The conversation's messages, oldest first; nothing is fetched without an id. */
export const conversationMessagesQuery = (id: string | null, showTestData: boolean) => ({
  ...endpointQuery(
    api.messages.messages,
    { params: { id: id ?? '' }, query: { showTestData } },
    { failureMessage: messagesTexts.messagesFailed },
  ),
  enabled: id !== null,
  refetchInterval: CONVERSATION_MESSAGES_REFRESH_MS,
});

/** The four stat cards of the Messages screen. */
export const messageStatsQuery = (showTestData: boolean) => ({
  ...endpointQuery(
    api.messages.messageStats,
    { query: { showTestData } },
    { failureMessage: messagesTexts.statsFailed },
  ),
  refetchInterval: MESSAGE_STATS_REFRESH_MS,
});

/** Re-checks a conversation's delivery status, then refreshes its messages (any Test Data Mode). */
export const checkDeliveryMutation = (queryClient: QueryClient) =>
  endpointMutation(api.messages.checkDelivery, {
    onSuccess: (_answer, { params }) => invalidateEndpoint(queryClient, api.messages.messages, params),
  });
