import { type AdminUserListItem, api, endpointKey, USER_SORT_KEYS } from '@sprout/contracts';
import { matchRoutes } from 'react-router';
import {
  ENGAGEMENT_HIGH_FROM,
  ENGAGEMENT_MEDIUM_FROM,
  engagementLevel,
  sentimentBadgeVariant,
  sentimentLabel,
} from '../src/features/users/engagement';
import { formatPercent } from '../src/features/users/format';
import { isProfileEmpty } from '../src/features/users/profile';
import { usersTexts } from '../src/features/users/texts';
import { DEFAULT_USER_SORT, nextUserSort } from '../src/features/users/user-sorting';
import { rowWindow } from '../src/features/users/row-window';
import { USER_COLUMNS } from '../src/features/users/UserTable';
import {
  mergeUserPages,
  userConversationsQuery,
  userDetailQuery,
  userListQuery,
  userStatsQuery,
} from '../src/features/users/queries';
import { routes } from '../src/app/routes';

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

describe('user sorting', () => {
  it('defaults to last message, newest first', () => {
    expect(DEFAULT_USER_SORT).toEqual({ key: 'lastMessageAt', direction: 'desc' });
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

  it('has a column for every sort the API knows', () => {
    expect(USER_COLUMNS.map((c) => c.key).sort()).toEqual([...USER_SORT_KEYS].sort());
  });
});

describe('user table windowing', () => {
  it('renders the rows in view and the overscan, with spacers for the rest', () => {
    // 500 px at 50 px a row: rows 10 to 19 in view at 500 px down, 5 more each side.
    expect(rowWindow(500, 500, 50, 1000, 5)).toEqual({ start: 5, end: 25, before: 250, after: 48_750 });
  });

  it('stays inside the list at its ends', () => {
    expect(rowWindow(0, 500, 50, 1000, 5)).toEqual({ start: 0, end: 15, before: 0, after: 49_250 });
    expect(rowWindow(49_600, 500, 50, 1000, 5)).toEqual({ start: 987, end: 1000, before: 49_350, after: 0 });
    expect(rowWindow(0, 500, 50, 3, 5)).toEqual({ start: 0, end: 3, before: 0, after: 0 });
    expect(rowWindow(0, 0, 50, 0, 5)).toEqual({ start: 0, end: 0, before: 0, after: 0 });
  });
});

describe('user pages', () => {
  it('lists the loaded pages in order, each user once (a user who moved pages between polls)', () => {
    const a = user({});
    const b = user({});
    const c = user({});
    const d = user({});
    const page = (users: AdminUserListItem[]) => ({ users, total: 4, totalIsCapped: false, nextCursor: 'x' });
    expect(mergeUserPages([page([a, b]), page([b, c]), page([d])])).toEqual([a, b, c, d]);
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
  it('uses the fixed screen texts', () => {
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
    expect(userStatsQuery(true).queryKey).toEqual([
      '/api/admin/users/stats/overview',
      { showTestUsers: true },
    ]);
    expect(
      endpointKey(api.users.list, {
        query: userListQuery('555', false, { key: 'totalCost', direction: 'desc' }),
      }),
    ).toEqual([
      '/api/admin/users',
      { search: '555', showTestUsers: false, sort: 'totalCost', order: 'desc' },
    ]);
    expect(userDetailQuery('abc').queryKey).toEqual(['/api/admin/users/abc']);
    // The user panel always asks with showTestData=false.
    expect(userConversationsQuery('abc').queryKey).toEqual([
      '/api/admin/conversations',
      { userId: 'abc', showTestData: false },
    ]);
  });
});
