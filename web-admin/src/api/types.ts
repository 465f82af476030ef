// Answer shapes the admin console reads: from @sprout/contracts, plus the ones it does not carry yet.
import type {
  AdminUserListItem,
  ConversationListResponse,
  DashboardMetrics,
  Pagination,
} from '@sprout/contracts';

export type {
  AdminLoginRequest,
  AdminLoginResponse,
  AuthStatusResponse,
  BetaSignupDto,
  DashboardMetrics,
} from '@sprout/contracts';

/** The Beta Signups card's counts, carried by GET /api/dashboard/metrics (not in @sprout/contracts yet). */
export interface BetaSignupCounts {
  total: number;
  pending: number;
}

/** GET /api/dashboard/metrics as the api-gateway answers it. */
export interface DashboardMetricsResponse extends DashboardMetrics {
  betaSignups: BetaSignupCounts;
}

/** POST /api/admin/beta-signups/{id}/approve (not in @sprout/contracts yet). */
export interface BetaSignupApproveResponse {
  success: true;
  signup: import('@sprout/contracts').BetaSignupDto;
}

/**
 * GET /api/admin/users: the users (the most recently active first, at most the API's limit) and
 * the X-Total-Count header, the number of users of the chosen kind or of search matches (capped
 * when X-Total-Count-Capped is 'true').
 */
export interface UserList {
  users: AdminUserListItem[];
  total: number;
  totalIsCapped: boolean;
}

/** The api-gateway's pagination: totalIsExact is false when a broad search's total is an estimate. */
export interface ConversationPagination extends Pagination {
  totalIsExact?: boolean;
}

/** GET /api/admin/conversations as the api-gateway answers it. */
export interface ConversationPage extends ConversationListResponse {
  pagination: ConversationPagination;
}
