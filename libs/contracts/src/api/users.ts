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
  /** Dollars: AI (model calls and image analysis). */
  cost: number;
  /** Dollars: SMS sent that day (list price per segment, or per MMS). */
  smsCost: number;
}

export interface UserAnalytics {
  totalMessages: number;
  conversationSessions: number;
  totalTokens: number;
  avgTokensPerMessage: number;
  /** Dollars: AI (model calls and image analysis). */
  totalCost: number;
  /** Dollars: SMS sent to the user (recorded as each is accepted by Twilio). */
  totalSmsCost: number;
  averageSentiment: SentimentLabel | null;
  /** The last 30 days with activity. */
  recentActivity: UserActivityDay[];
}

export const SENDER_LIMIT_WINDOWS = ['minute', 'hour', 'day'] as const;
export type SenderLimitWindowValue = (typeof SENDER_LIMIT_WINDOWS)[number];

/** A stretch in which a sender's texts went unanswered: over a per-sender reply limit. */
export interface SenderRateLimit {
  /** The window whose limit keeps them waiting longest. */
  window: SenderLimitWindowValue;
  /** Replies a sender gets in that window. */
  limit: number;
  /** The first text not answered. */
  limitedAt: IsoDateTime;
  /** When they are answered again (past: the stretch is over). */
  limitedUntil: IsoDateTime;
  /** limitedUntil is still to come. */
  active: boolean;
  /** Texts not answered in the stretch; the first got a notice saying when replies resume. */
  refusedTexts: number;
}

/** GET /api/admin/users/{id} */
export interface UserDetail extends Omit<AdminUserListItem, 'analytics'> {
  region: string | null;
  hardinessZone: string | null;
  analytics: UserAnalytics;
  /** The user's stretch over a reply limit, while it lasts; null otherwise. */
  rateLimit: SenderRateLimit | null;
}

/** One row of GET /api/admin/sender-limits. */
export interface RateLimitedSender extends SenderRateLimit {
  userId: string;
  phoneNumber: string;
}

/** GET /api/admin/sender-limits */
export interface SenderLimitsResponse {
  /** Limited now (soonest answered again first), then those limited in the last 24 hours. */
  senders: RateLimitedSender[];
}

/** GET /api/admin/sender-limits answers at most this many senders. */
export const SENDER_LIMITS_MAX_ROWS = 100;

export const USER_LIST_DEFAULT_LIMIT = 100;
export const USER_LIST_MAX_LIMIT = 500;
export const USER_SEARCH_MAX_LENGTH = 50;
/** A cursor is the base64url text of a few short values; anything longer is not one of ours. */
const USER_CURSOR_MAX_LENGTH = 400;

/** The columns of the Users table, each a sort of GET /api/admin/users. */
export const USER_SORT_KEYS = [
  'phoneNumber',
  'region',
  'isActive',
  'totalMessages',
  'engagement',
  'sentiment',
  'totalCost',
  'profileCompletionScore',
  'createdAt',
  'lastMessageAt',
] as const;
export type UserSortKey = (typeof USER_SORT_KEYS)[number];
export type UserSortOrder = 'asc' | 'desc';
/** The table opens on last message, newest first. */
export const USER_DEFAULT_SORT: { sort: UserSortKey; order: UserSortOrder } = {
  sort: 'lastMessageAt',
  order: 'desc',
};

/** Headers of GET /api/admin/users beside its bare array (the body stays a plain list). */
export const USER_TOTAL_COUNT_HEADER = 'x-total-count';
/** 'true' when a search matched more users than were counted (the total is then the cap). */
export const USER_TOTAL_COUNT_CAPPED_HEADER = 'x-total-count-capped';
/** The cursor of the next page; absent on the last page. */
export const USER_NEXT_CURSOR_HEADER = 'x-next-cursor';

const ShowTestUsersQuery = z.object({ showTestUsers: testDataFlag() });

/** What the Users table shows: the kind of users, the phone search, the sort and its order. */
const UserListView = z.object({
  /** Phone digits: "+1503" prefix or "5550123" anywhere. */
  search: searchParam(USER_SEARCH_MAX_LENGTH),
  showTestUsers: testDataFlag(),
  /** Absent: the default sort and order (USER_DEFAULT_SORT). */
  sort: z.enum(USER_SORT_KEYS, { error: `must be one of ${USER_SORT_KEYS.join(', ')}` }).optional(),
  /** Absent: asc, or desc for the default sort. */
  order: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional(),
});

/** The columns of the users CSV export, in order (its header row). */
export const USER_EXPORT_COLUMNS = [
  'user_id',
  'phone_number',
  'test_user_name',
  'region',
  'zip_code',
  'status',
  'total_messages',
  'engagement',
  'sentiment',
  'total_cost',
  'profile_completion',
  'joined_at',
  'last_message_at',
] as const;

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
    summary: 'Every user, sorted on any column of the table, a page at a time (keyset), searchable by phone',
    description:
      'Sorted by `sort` (default lastMessageAt) in `order` (default asc, desc for the default sort), ' +
      'ties broken by id in the same direction; users without a region or a last message come last ' +
      'either way. Sentiment sorts negative, frustrated, neutral, positive; engagement Low, Medium, ' +
      'High. X-Next-Cursor holds the cursor of the next page (absent on the last); pass it back as ' +
      '`cursor` with the same sort, order, search and showTestUsers. X-Total-Count holds the number ' +
      'of users of the chosen kind, or with a search the matches counted up to 1000 ' +
      '(X-Total-Count-Capped: true beyond).',
    query: UserListView.extend({
      /** X-Next-Cursor of the previous page; empty or absent: the first page. */
      cursor: z
        .string({ error: 'must be text' })
        .max(USER_CURSOR_MAX_LENGTH, { error: 'is not a cursor of this list' })
        .optional()
        .transform((value) => value ?? ''),
      limit: wholeNumberParam(USER_LIST_DEFAULT_LIMIT, 1, USER_LIST_MAX_LIMIT),
    }),
    answer: answer<AdminUserListItem[]>('A page of users in the chosen order'),
    answerHeaders: {
      [USER_TOTAL_COUNT_HEADER]: 'Users of the chosen kind, or search matches counted up to 1000',
      [USER_TOTAL_COUNT_CAPPED_HEADER]: "'true' when the search matched more than were counted",
      [USER_NEXT_CURSOR_HEADER]: "The next page's cursor; absent on the last page",
    },
  }),
  export: endpoint({
    method: 'GET',
    path: '/api/admin/users/export',
    access: 'admin',
    tag: 'admin users',
    summary: 'CSV of every user the table lists for this search, test-data choice, sort and order',
    description:
      'All matching users (not a page), in the list’s order, streamed as they are read; phone numbers ' +
      'included. Free-text fields that start like a spreadsheet formula get a leading quote. The ' +
      'export is logged with the admin who took it.',
    query: UserListView,
    // text/csv on success only (set by the handler): errors stay JSON.
    answer: answer<void>('A CSV attachment (text/csv), one user a line after the header row'),
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
  senderLimits: endpoint({
    method: 'GET',
    path: '/api/admin/sender-limits',
    access: 'admin',
    tag: 'admin users',
    summary: 'Senders over a per-sender reply limit now or in the last 24 hours, and since when',
    description:
      'A sender over SENDER_REPLIES_PER_MINUTE, _PER_HOUR or _PER_DAY gets one notice, then no ' +
      'reply (and no model call) until the window passes; STOP and HELP are always answered. ' +
      'Those limited now come first (soonest answered again first), then the others of the last ' +
      `24 hours, latest first; at most ${SENDER_LIMITS_MAX_ROWS}. Test users are never limited.`,
    answer: answer<SenderLimitsResponse>('The limited senders'),
  }),
} as const;
