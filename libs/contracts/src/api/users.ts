import { z } from 'zod';
import { queryBoolean, type IsoDateTime, type SentimentLabel } from './common';

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

export const AdminUsersQuery = z.object({
  search: z.string().trim().max(50).optional(),
  showTestUsers: queryBoolean,
});
export type AdminUsersQuery = z.output<typeof AdminUsersQuery>;

export const UserStatsQuery = z.object({ showTestUsers: queryBoolean });
export type UserStatsQuery = z.output<typeof UserStatsQuery>;

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
