// Answer shapes the admin console reads: from @sprout/contracts, plus the ones it does not carry yet.
import type { DashboardMetrics } from '@sprout/contracts';

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
