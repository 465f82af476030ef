import {
  changeFromYesterday,
  checkDeliveryToasts,
  lastFourDigits,
  messagesTexts,
  TOPICS_SHOWN,
  userSearchPath,
  visibleTopics,
} from '../src/features/messages/texts';
import {
  conversationListQuery,
  conversationMessagesQuery,
  messageStatsQuery,
} from '../src/features/messages/queries';

describe('Messages Today comparison', () => {
  it("says 'No change from yesterday' at zero", () => {
    expect(changeFromYesterday(0)).toBe('No change from yesterday');
    expect(changeFromYesterday(0.04)).toBe('No change from yesterday');
    expect(changeFromYesterday(Number.NaN)).toBe('No change from yesterday');
  });

  it('shows the signed percent change otherwise', () => {
    expect(changeFromYesterday(25)).toBe('+25% from yesterday');
    expect(changeFromYesterday(-33.333)).toBe('-33.3% from yesterday');
    expect(changeFromYesterday(100)).toBe('+100% from yesterday');
  });
});

describe('conversation rows', () => {
  it('show the last four digits of the phone', () => {
    expect(lastFourDigits('+15035550123')).toBe('0123');
    expect(lastFourDigits('+1 (503) 555-9876')).toBe('9876');
  });

  it('link to the Users screen searching the phone', () => {
    expect(userSearchPath('+15035550123')).toBe('/users?search=%2B15035550123');
    expect(new URLSearchParams(userSearchPath('+15035550123').split('?')[1]).get('search')).toBe(
      '+15035550123',
    );
  });

  it('show up to three topics, then +N more, all when expanded', () => {
    expect(TOPICS_SHOWN).toBe(3);
    const topics = ['tomatoes', 'watering', 'pests', 'soil', 'frost'];
    expect(visibleTopics(topics, false)).toEqual({ shown: ['tomatoes', 'watering', 'pests'], hidden: 2 });
    expect(visibleTopics(topics, true)).toEqual({ shown: topics, hidden: 0 });
    expect(visibleTopics(topics.slice(0, 3), false)).toEqual({ shown: topics.slice(0, 3), hidden: 0 });
    expect(visibleTopics([], false)).toEqual({ shown: [], hidden: 0 });
  });
});

describe('messages screen texts', () => {
  it('uses the fixed screen texts', () => {
    expect(messagesTexts).toMatchObject({
      searchPlaceholder: 'Search conversations...',
      noConversations: 'No conversations found',
      noConversationsHint: 'Try adjusting your search terms.',
      noSelection: 'No conversation selected',
      requiresAttention: 'Requires attention',
      checkDelivery: 'Check Delivery Status',
    });
    expect(checkDeliveryToasts).toEqual({
      success: {
        title: 'Delivery Status Updated',
        description: 'Message delivery status has been checked and updated.',
      },
      failure: { title: 'Error', description: 'Failed to check delivery status.' },
    });
  });

  it('keys conversations, messages and stats by URL and Test Data Mode', () => {
    expect(conversationListQuery({ page: 2, search: 'tomato', showTestData: true }).queryKey).toEqual([
      '/api/admin/conversations',
      { page: 2, search: 'tomato', showTestData: true },
    ]);
    expect(conversationMessagesQuery('c1', false).queryKey).toEqual([
      '/api/admin/conversations/c1/messages',
      { showTestData: false },
    ]);
    expect(messageStatsQuery(false).queryKey).toEqual(['/api/admin/messages/stats', { showTestData: false }]);
  });
});
