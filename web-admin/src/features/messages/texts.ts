// The texts of the Messages and Conversations screen.

export const messagesTexts = {
  loadingStats: 'Loading...',
  statsFailed: 'Failed to fetch message stats',
  searchPlaceholder: 'Search conversations...',
  loadingConversations: 'Loading conversations...',
  conversationsFailed: 'Failed to fetch conversations',
  noConversations: 'No conversations found',
  noConversationsHint: 'Try adjusting your search terms.',
  searchGap: 'No matches among these conversations. Next searches older ones.',
  noSelection: 'No conversation selected',
  noSelectionHint: 'Choose a conversation from the list to read its messages.',
  loadingMessages: 'Loading messages...',
  messagesFailed: 'Failed to fetch conversation messages',
  noMessages: 'No messages in this conversation',
  noChange: 'No change from yesterday',
  requiresAttention: 'Requires attention',
  checkDelivery: 'Check Delivery Status',
  checkingDelivery: 'Checking...',
} as const;

export const checkDeliveryToasts = {
  success: {
    title: 'Delivery Status Updated',
    description: 'Message delivery status has been checked and updated.',
  },
  failure: { title: 'Error', description: 'Failed to check delivery status.' },
} as const;

/** Topics shown per row before '+N more'. */
export const TOPICS_SHOWN = 3;

/** The Messages Today card's comparison with yesterday. */
export function changeFromYesterday(changePercent: number): string {
  if (!Number.isFinite(changePercent) || Math.round(changePercent * 10) === 0) return messagesTexts.noChange;
  const rounded = Math.round(changePercent * 10) / 10;
  return `${rounded > 0 ? '+' : ''}${rounded}% from yesterday`;
}

/** The last four digits of a phone number, as a row's avatar. */
export function lastFourDigits(phoneNumber: string): string {
  return phoneNumber.replace(/\D/g, '').slice(-4);
}

/** The topics a row shows: the first three unless expanded, and how many are hidden. */
export function visibleTopics(
  topics: readonly string[],
  expanded: boolean,
): { shown: readonly string[]; hidden: number } {
  if (expanded || topics.length <= TOPICS_SHOWN) return { shown: topics, hidden: 0 };
  return { shown: topics.slice(0, TOPICS_SHOWN), hidden: topics.length - TOPICS_SHOWN };
}

/** The link from a conversation to its user on the Users screen. */
export function userSearchPath(phoneNumber: string): string {
  return `/users?search=${encodeURIComponent(phoneNumber)}`;
}
