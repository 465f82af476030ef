import type { AdminUserListItem } from '@sprout/contracts';
import { matchRoutes } from 'react-router';
import {
  ENGAGEMENT_HIGH_FROM,
  ENGAGEMENT_MEDIUM_FROM,
  engagementLevel,
  sentimentBadgeVariant,
  sentimentLabel,
} from '../src/pages/users/engagement';
import { formatPercent } from '../src/pages/users/format';
import { isProfileEmpty } from '../src/pages/users/profile';
import { usersTexts } from '../src/pages/users/texts';
import {
  DEFAULT_USER_SORT,
  nextUserSort,
  sortUsers,
  type UserSortKey,
} from '../src/pages/users/user-sorting';
import { QueryKeys } from '../src/query-keys';
import { routes } from '../src/routes';

let counter = 0;

function user(overrides: {
  phoneNumber?: string;
  region?: string | null;
  isActive?: boolean;
  totalMessages?: number;
  totalCost?: number;
  sentiment?: AdminUserListItem['analytics']['averageSentiment'];
  profileCompletionScore?: number;
  createdAt?: string;
  lastMessageAt?: string | null;
}): AdminUserListItem {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    phoneNumber: overrides.phoneNumber ?? `+1503555${String(counter).padStart(4, '0')}`,
    createdAt: overrides.createdAt ?? '2025-01-01T00:00:00.000Z',
    isActive: overrides.isActive ?? true,
    lastMessageAt:
      overrides.lastMessageAt === undefined ? '2025-02-01T00:00:00.000Z' : overrides.lastMessageAt,
    profileCompletionScore: overrides.profileCompletionScore ?? 0,
    zipCode: null,
    isTestUser: false,
    profile: {
      region: overrides.region ?? null,
      growingContext: null,
      preferences: [],
      conversationStyle: null,
    },
    analytics: {
      totalMessages: overrides.totalMessages ?? 0,
      totalCost: overrides.totalCost ?? 0,
      averageSentiment: overrides.sentiment ?? null,
    },
  };
}

describe('engagement level', () => {
  it('is Low under 5, Medium from 5 to 19, High from 20', () => {
    expect([ENGAGEMENT_MEDIUM_FROM, ENGAGEMENT_HIGH_FROM]).toEqual([5, 20]);
    expect([0, 4, 5, 19, 20, 500].map(engagementLevel)).toEqual([
      'Low',
      'Low',
      'Medium',
      'Medium',
      'High',
      'High',
    ]);
  });
});

describe('sentiment', () => {
  it('keeps the four labels and reads anything else as neutral', () => {
    expect(['positive', 'negative', 'frustrated', 'neutral'].map(sentimentLabel)).toEqual([
      'positive',
      'negative',
      'frustrated',
      'neutral',
    ]);
    expect([null, undefined, 'mixed', ''].map(sentimentLabel)).toEqual([
      'neutral',
      'neutral',
      'neutral',
      'neutral',
    ]);
  });

  it('badges good news, bad news and the rest differently', () => {
    expect(sentimentBadgeVariant('positive')).toBe('default');
    expect(sentimentBadgeVariant('negative')).toBe('destructive');
    expect(sentimentBadgeVariant('frustrated')).toBe('destructive');
    expect(sentimentBadgeVariant(null)).toBe('secondary');
  });
});

describe('user sorting (spec 000 §4)', () => {
  it('defaults to last message, newest first', () => {
    expect(DEFAULT_USER_SORT).toEqual({ key: 'lastMessageAt', direction: 'desc' });
    const older = user({ lastMessageAt: '2025-01-01T00:00:00Z' });
    const newer = user({ lastMessageAt: '2025-03-01T00:00:00Z' });
    const never = user({ lastMessageAt: null });
    expect(sortUsers([older, never, newer], DEFAULT_USER_SORT)).toEqual([newer, older, never]);
  });

  it('sorts ascending on the first click of a column and toggles on the next clicks', () => {
    const first = nextUserSort(DEFAULT_USER_SORT, 'totalCost');
    expect(first).toEqual({ key: 'totalCost', direction: 'asc' });
    const second = nextUserSort(first, 'totalCost');
    expect(second).toEqual({ key: 'totalCost', direction: 'desc' });
    expect(nextUserSort(second, 'totalCost')).toEqual({ key: 'totalCost', direction: 'asc' });
    expect(nextUserSort(DEFAULT_USER_SORT, 'lastMessageAt')).toEqual({
      key: 'lastMessageAt',
      direction: 'asc',
    });
    expect(nextUserSort(second, 'region')).toEqual({ key: 'region', direction: 'asc' });
  });

  it('orders sentiment negative, frustrated, neutral, positive', () => {
    const users = (['positive', 'neutral', 'negative', 'frustrated'] as const).map((sentiment, i) =>
      user({ sentiment, phoneNumber: `+1000000000${i}` }),
    );
    const asc = sortUsers(users, { key: 'sentiment', direction: 'asc' });
    expect(asc.map((u) => u.analytics.averageSentiment)).toEqual([
      'negative',
      'frustrated',
      'neutral',
      'positive',
    ]);
    const desc = sortUsers(users, { key: 'sentiment', direction: 'desc' });
    expect(desc.map((u) => u.analytics.averageSentiment)).toEqual([
      'positive',
      'neutral',
      'frustrated',
      'negative',
    ]);
  });

  it('orders engagement Low, Medium, High, by level not by count', () => {
    const high = user({ totalMessages: 20, phoneNumber: '+10000000001' });
    const low = user({ totalMessages: 4, phoneNumber: '+10000000002' });
    const medium = user({ totalMessages: 19, phoneNumber: '+10000000003' });
    const mediumToo = user({ totalMessages: 5, phoneNumber: '+10000000004' });
    expect(sortUsers([high, low, medium, mediumToo], { key: 'engagement', direction: 'asc' })).toEqual([
      low,
      medium,
      mediumToo,
      high,
    ]);
    expect(sortUsers([high, low, medium, mediumToo], { key: 'engagement', direction: 'desc' })).toEqual([
      high,
      medium,
      mediumToo,
      low,
    ]);
  });

  it.each<[UserSortKey, Parameters<typeof user>[0][], number[]]>([
    [
      'phoneNumber',
      [{ phoneNumber: '+15035550300' }, { phoneNumber: '+15035550100' }, { phoneNumber: '+15035550200' }],
      [1, 2, 0],
    ],
    ['region', [{ region: 'Pacific Northwest' }, { region: 'midwest' }, { region: 'Southwest' }], [1, 0, 2]],
    ['isActive', [{ isActive: true }, { isActive: false }], [1, 0]],
    ['totalMessages', [{ totalMessages: 12 }, { totalMessages: 3 }, { totalMessages: 100 }], [1, 0, 2]],
    ['totalCost', [{ totalCost: 0.5 }, { totalCost: 0.0001 }, { totalCost: 12 }], [1, 0, 2]],
    ['profileCompletionScore', [{ profileCompletionScore: 80 }, { profileCompletionScore: 5 }], [1, 0]],
    ['createdAt', [{ createdAt: '2025-02-01T00:00:00Z' }, { createdAt: '2024-12-01T00:00:00Z' }], [1, 0]],
    [
      'lastMessageAt',
      [{ lastMessageAt: '2025-02-01T00:00:00Z' }, { lastMessageAt: '2025-01-01T00:00:00Z' }],
      [1, 0],
    ],
  ])('sorts %s both ways', (key, specs, ascending) => {
    const users = specs.map(user);
    const expected = ascending.map((index) => users[index]);
    expect(sortUsers(users, { key, direction: 'asc' })).toEqual(expected);
    expect(sortUsers(users, { key, direction: 'desc' })).toEqual([...expected].reverse());
  });

  it('sorts regions alphabetically ignoring case', () => {
    const users = ['Pacific Northwest', 'midwest', 'Southwest'].map((region) => user({ region }));
    expect(sortUsers(users, { key: 'region', direction: 'asc' }).map((u) => u.profile.region)).toEqual([
      'midwest',
      'Pacific Northwest',
      'Southwest',
    ]);
  });

  it('puts users without a value last in both directions', () => {
    const withRegion = user({ region: 'Southeast' });
    const withoutRegion = user({ region: null });
    const other = user({ region: 'Alaska' });
    expect(sortUsers([withoutRegion, withRegion, other], { key: 'region', direction: 'asc' })).toEqual([
      other,
      withRegion,
      withoutRegion,
    ]);
    expect(sortUsers([withoutRegion, withRegion, other], { key: 'region', direction: 'desc' })).toEqual([
      withRegion,
      other,
      withoutRegion,
    ]);
  });

  it('breaks ties by phone number, the same way in both directions', () => {
    const b = user({ phoneNumber: '+15035550002', totalMessages: 7 });
    const a = user({ phoneNumber: '+15035550001', totalMessages: 7 });
    expect(sortUsers([b, a], { key: 'totalMessages', direction: 'asc' })).toEqual([a, b]);
    expect(sortUsers([b, a], { key: 'totalMessages', direction: 'desc' })).toEqual([a, b]);
  });

  it('does not change the list it is given', () => {
    const users = [user({ totalMessages: 2 }), user({ totalMessages: 1 })];
    const copy = [...users];
    sortUsers(users, { key: 'totalMessages', direction: 'asc' });
    expect(users).toEqual(copy);
  });
});

describe('profile', () => {
  it("is empty only when it says nothing ('No profile data available')", () => {
    const empty = { region: null, growingContext: ' ', preferences: [], conversationStyle: null };
    expect(isProfileEmpty(empty)).toBe(true);
    expect(isProfileEmpty({ ...empty, preferences: ['organic'] })).toBe(false);
    expect(isProfileEmpty({ ...empty, conversationStyle: 'brief' })).toBe(false);
    expect(usersTexts.noProfileData).toBe('No profile data available');
  });
});

describe('users screen texts and numbers', () => {
  it('uses the spec texts', () => {
    expect(usersTexts).toMatchObject({
      noUsersTitle: 'No Users Found',
      noSearchMatch: 'No users match your search criteria.',
      noUsersYet: 'No users have registered yet.',
      loadingDetail: 'Loading user details...',
      detailFailed: 'Failed to load user details',
      noRecentActivity: 'No recent activity',
      ongoing: 'Ongoing',
    });
  });

  it('formats percents with at most one decimal', () => {
    expect([0, 12.345, 50, 100, Number.NaN].map(formatPercent)).toEqual(['0', '12.3', '50', '100', '0']);
  });
});

describe('users routes and query keys', () => {
  const routeFor = (path: string) => matchRoutes(routes, path)?.at(-1)?.route.path;

  it('serves /admin/users and /admin/messages', () => {
    expect(routeFor('/admin/users')).toBe('/admin/users');
    expect(routeFor('/admin/messages')).toBe('/admin/messages');
  });

  it('has /users for the Messages screen phone link', () => {
    expect(routeFor('/users')).toBe('/users');
  });

  it('keys every query by its URL first and its Test Data Mode', () => {
    expect(QueryKeys.userStats({ showTestUsers: true })).toEqual([
      '/api/admin/users/stats/overview',
      { showTestUsers: true },
    ]);
    expect(QueryKeys.users({ search: '555', showTestUsers: false })).toEqual([
      '/api/admin/users',
      { search: '555', showTestUsers: false },
    ]);
    expect(QueryKeys.userDetail('abc')).toEqual(['/api/admin/users/abc']);
    // The user panel always asks with showTestData=false (spec 000 §7).
    expect(QueryKeys.conversations({ userId: 'abc', showTestData: false })).toEqual([
      '/api/admin/conversations',
      { userId: 'abc', showTestData: false },
    ]);
  });
});
