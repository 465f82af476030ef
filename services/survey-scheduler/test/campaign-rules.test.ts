import {
  type AudienceCandidate,
  audienceRuleOf,
  campaignStatusAt,
  isConversationFinished,
  isTargeted,
} from '../src/lifecycle/campaign-rules';

const at = (iso: string): Date => new Date(iso);

describe('campaignStatusAt', () => {
  const start = at('2025-05-01T00:00:00Z');
  const end = at('2025-05-31T00:00:00Z');

  it('starts a scheduled campaign at its start date, not before', () => {
    expect(
      campaignStatusAt({ status: 'scheduled', startDate: start, endDate: end }, at('2025-04-30T23:59:59Z')),
    ).toBe('scheduled');
    expect(campaignStatusAt({ status: 'scheduled', startDate: start, endDate: end }, start)).toBe('live');
    expect(
      campaignStatusAt({ status: 'scheduled', startDate: start, endDate: null }, at('2030-01-01T00:00:00Z')),
    ).toBe('live');
  });

  it('completes a live campaign only after its end date', () => {
    expect(campaignStatusAt({ status: 'live', startDate: start, endDate: end }, end)).toBe('live');
    expect(
      campaignStatusAt({ status: 'live', startDate: start, endDate: end }, at('2025-05-31T00:00:01Z')),
    ).toBe('completed');
    expect(
      campaignStatusAt({ status: 'live', startDate: start, endDate: null }, at('2030-01-01T00:00:00Z')),
    ).toBe('live');
  });

  it('completes a scheduled campaign whose end passed before it started', () => {
    expect(
      campaignStatusAt({ status: 'scheduled', startDate: start, endDate: end }, at('2025-06-02T00:00:00Z')),
    ).toBe('completed');
  });

  it('keeps a live campaign live when its start date moves later', () => {
    expect(
      campaignStatusAt({ status: 'live', startDate: at('2025-06-01T00:00:00Z'), endDate: null }, start),
    ).toBe('live');
  });

  it('leaves paused and completed campaigns alone, whatever the dates', () => {
    expect(
      campaignStatusAt({ status: 'paused', startDate: start, endDate: end }, at('2025-05-10T00:00:00Z')),
    ).toBe('paused');
    expect(
      campaignStatusAt({ status: 'paused', startDate: start, endDate: end }, at('2025-07-01T00:00:00Z')),
    ).toBe('paused');
    expect(
      campaignStatusAt({ status: 'completed', startDate: start, endDate: end }, at('2025-05-10T00:00:00Z')),
    ).toBe('completed');
  });
});

describe('audience targeting', () => {
  const start = at('2025-05-01T00:00:00Z');
  const user = (overrides: Partial<AudienceCandidate>): AudienceCandidate => ({
    createdAt: at('2025-04-01T00:00:00Z'),
    isTestUser: false,
    optedOut: false,
    finishedConversations: 0,
    ...overrides,
  });
  const both = audienceRuleOf({ startDate: start, targetExistingUsers: true, targetNewUsers: true });

  it('targets existing users (created before the start) right away', () => {
    expect(isTargeted(both, user({}))).toBe(true);
    expect(isTargeted(both, user({ createdAt: at('2025-04-30T23:59:59.999Z') }))).toBe(true);
  });

  it('targets new users only after they finished a conversation (reached in their second)', () => {
    expect(isTargeted(both, user({ createdAt: start }))).toBe(false);
    expect(isTargeted(both, user({ createdAt: at('2025-05-02T00:00:00Z'), finishedConversations: 1 }))).toBe(
      true,
    );
    expect(isTargeted(both, user({ createdAt: start, finishedConversations: 3 }))).toBe(true);
  });

  it('never targets test users or opted-out users', () => {
    expect(isTargeted(both, user({ isTestUser: true }))).toBe(false);
    expect(isTargeted(both, user({ optedOut: true }))).toBe(false);
    expect(
      isTargeted(
        both,
        user({ createdAt: at('2025-05-02T00:00:00Z'), finishedConversations: 2, optedOut: true }),
      ),
    ).toBe(false);
  });

  it('follows the audience switches', () => {
    const existingOnly = audienceRuleOf({
      startDate: start,
      targetExistingUsers: true,
      targetNewUsers: false,
    });
    const newOnly = audienceRuleOf({ startDate: start, targetExistingUsers: false, targetNewUsers: true });
    const fresh = user({ createdAt: at('2025-05-03T00:00:00Z'), finishedConversations: 1 });
    expect(isTargeted(existingOnly, user({}))).toBe(true);
    expect(isTargeted(existingOnly, fresh)).toBe(false);
    expect(isTargeted(newOnly, user({}))).toBe(false);
    expect(isTargeted(newOnly, fresh)).toBe(true);
    const none = audienceRuleOf({ startDate: start, targetExistingUsers: false, targetNewUsers: false });
    expect(isTargeted(none, user({}))).toBe(false);
    expect(isTargeted(none, fresh)).toBe(false);
  });
});

describe('isConversationFinished', () => {
  const now = at('2025-05-10T12:00:00Z');
  const sixHours = 6 * 60 * 60 * 1000;

  it('is finished when ended or idle for the idle timeout', () => {
    expect(
      isConversationFinished(
        { endedAt: at('2025-05-10T11:00:00Z'), lastMessageAt: at('2025-05-10T11:00:00Z') },
        now,
        sixHours,
      ),
    ).toBe(true);
    expect(
      isConversationFinished({ endedAt: null, lastMessageAt: at('2025-05-10T06:00:00Z') }, now, sixHours),
    ).toBe(true);
    expect(
      isConversationFinished({ endedAt: null, lastMessageAt: at('2025-05-10T06:00:01Z') }, now, sixHours),
    ).toBe(false);
  });
});
