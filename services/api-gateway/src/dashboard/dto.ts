import type { DashboardMetrics } from '@sprout/contracts';

// Not (yet) in @sprout/contracts: the dashboard's Beta Signups card rides on the metrics answer.
export interface BetaSignupCounts {
  total: number;
  pending: number;
}

/** GET /api/dashboard/metrics: the spec's four figures plus the signup card. */
export interface DashboardMetricsResponse extends DashboardMetrics {
  betaSignups: BetaSignupCounts;
}
