/** GET /api/dashboard/metrics (and GET /api/admin/metrics for the monitoring dashboard). */
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
