import { z } from 'zod';
import { answer, endpoint } from '../http/endpoint';
import { idParams, searchParam, testDataFlag, wholeNumberParam } from '../http/params';
import type { IsoDateTime, SentimentLabel } from './common';

/** GET /api/admin/users/stats/overview */
export interface UserOverviewStats {
  totalUsers: number;
  /** Users with a message in the last 24 hours. */
  activeUsers: number;
  /** Users created this week. */
  newUsers: number;
  totalMessages: number;
  /** Percent, 0 to 100. */
  engagementRate: number;
}

export interface UserProfileDto {
  region: string | null;
  growingContext: string | null;
  preferences: string[];
  conversationStyle: string | null;
}

export interface UserListAnalytics {
  totalMessages: number;
  /** Dollars. */
  totalCost: number;
  /** Overall label of the user's messages; null when none is known. */
  averageSentiment: SentimentLabel | null;
}

/** One row of GET /api/admin/users (an array). */
export interface AdminUserListItem {
  id: string;
  phoneNumber: string;
  createdAt: IsoDateTime;
  isActive: boolean;
  lastMessageAt: IsoDateTime | null;
  /** Percent, 0 to 100. */
  profileCompletionScore: number;
  zipCode: string | null;
  isTestUser: boolean;
  profile: UserProfileDto;
  analytics: UserListAnalytics;
}

export interface UserActivityDay {
  /** YYYY-MM-DD */
  date: string;
  messages: number;
  /** Dollars. */
  cost: number;
}

export interface UserAnalytics {
  totalMessages: number;
  conversationSessions: number;
  totalTokens: number;
  avgTokensPerMessage: number;
  totalCost: number;
  averageSentiment: SentimentLabel | null;
  /** The last 30 days with activity. */
  recentActivity: UserActivityDay[];
}

/** GET /api/admin/users/{id} */
export interface UserDetail extends Omit<AdminUserListItem, 'analytics'> {
  region: string | null;
  hardinessZone: string | null;
  analytics: UserAnalytics;
}

export const USER_LIST_DEFAULT_LIMIT = 200;
export const USER_LIST_MAX_LIMIT = 500;
export const USER_SEARCH_MAX_LENGTH = 50;

/** Headers of GET /api/admin/users beside its bare array (the spec's shape). */
export const USER_TOTAL_COUNT_HEADER = 'x-total-count';
/** 'true' when a search matched more users than were counted (the total is then the cap). */
export const USER_TOTAL_COUNT_CAPPED_HEADER = 'x-total-count-capped';

const ShowTestUsersQuery = z.object({ showTestUsers: testDataFlag() });

export const usersApi = {
  stats: endpoint({
    method: 'GET',
    path: '/api/admin/users/stats/overview',
    access: 'admin',
    tag: 'admin users',
    summary: 'User stat cards: users, active (24 h), new (7 days), messages, engagement %',
    query: ShowTestUsersQuery,
    answer: answer<UserOverviewStats>('The five stat cards of the Users screen'),
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/admin/users',
    access: 'admin',
    tag: 'admin users',
    summary: 'The most recently active users (default 200), searchable by phone digits',
    description:
      'Sorted by last message, newest first. X-Total-Count holds the number of users of the chosen ' +
      'kind, or with a search the matches counted up to 1000 (X-Total-Count-Capped: true beyond).',
    query: z.object({
      /** Phone digits: "+1503" prefix or "5550123" anywhere. */
      search: searchParam(USER_SEARCH_MAX_LENGTH),
      showTestUsers: testDataFlag(),
      limit: wholeNumberParam(USER_LIST_DEFAULT_LIMIT, 1, USER_LIST_MAX_LIMIT),
    }),
    answer: answer<AdminUserListItem[]>('Users, most recently active first'),
    answerHeaders: {
      [USER_TOTAL_COUNT_HEADER]: 'Users of the chosen kind, or search matches counted up to 1000',
      [USER_TOTAL_COUNT_CAPPED_HEADER]: "'true' when the search matched more than were counted",
    },
  }),
  detail: endpoint({
    method: 'GET',
    path: '/api/admin/users/:id',
    access: 'admin',
    tag: 'admin users',
    summary: 'One user with profile and analytics (30 days of recent activity)',
    params: idParams('User id must be a UUID'),
    answer: answer<UserDetail>('The user'),
  }),
} as const;
