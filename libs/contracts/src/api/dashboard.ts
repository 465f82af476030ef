import { answer, endpoint } from '../http/endpoint';
import { TestDataQuery } from '../http/params';

/** The four figures of GET /api/dashboard/metrics (and GET /api/admin/metrics). */
export interface DashboardMetrics {
  activeUsers: number;
  messagesToday: number;
  /** Milliseconds. */
  avgResponseTime: number;
  /** Dollars. */
  todaysCost: number;
}

/** GET /api/admin/metrics: the monitoring dashboard's four cards. */
export type AdminMetrics = DashboardMetrics;

/** The dashboard's Beta Signups card. */
export interface BetaSignupCounts {
  total: number;
  pending: number;
}

/** GET /api/dashboard/metrics: the four headline figures plus the signup card. */
export interface DashboardMetricsResponse extends DashboardMetrics {
  betaSignups: BetaSignupCounts;
  /** Dollars of SMS sent today (midnight UTC), beside todaysCost (AI); 0 for test data (never sent). */
  todaysSmsCost: number;
}

export const dashboardApi = {
  metrics: endpoint({
    method: 'GET',
    path: '/api/dashboard/metrics',
    access: 'admin',
    tag: 'dashboard',
    summary: "Overview cards: active users, today's messages, response time and cost, signups",
    description:
      "Active users: a message in the last 24 hours. Today's figures count from midnight UTC. " +
      "todaysCost is the AI's (model calls); todaysSmsCost what the SMS sent cost. " +
      "showTestData=true shows test users' data only (signups are never test data).",
    query: TestDataQuery,
    answer: answer<DashboardMetricsResponse>('The overview figures'),
  }),
} as const;
