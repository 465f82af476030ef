import { Injectable } from '@nestjs/common';
import { dashboardMetrics } from '@sprout/domain';
import { DataSource } from 'typeorm';
import type { DashboardMetricsResponse } from '@sprout/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC at the start of the given instant's day. */
export const startOfUtcDay = (now: Date): Date =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

@Injectable()
export class DashboardService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The overview figures for either real users' data (testData false) or test users' data only:
   * active users are those whose last message is at most a day old (as on the Users screen).
   */
  async metrics(testData: boolean, now: Date = new Date()): Promise<DashboardMetricsResponse> {
    const dayAgo = new Date(now.getTime() - DAY_MS);
    const today = startOfUtcDay(now);
    const row = await dashboardMetrics(this.dataSource, testData, dayAgo, today);
    if (row === undefined) throw new Error('Dashboard metrics query returned no row');
    return {
      activeUsers: Number(row.active_users),
      messagesToday: Number(row.messages_today),
      avgResponseTime: row.avg_response_ms === null ? 0 : Math.round(Number(row.avg_response_ms)),
      todaysCost: Number(row.todays_cost),
      todaysSmsCost: Number(row.todays_sms_cost),
      betaSignups: { total: Number(row.signups_total), pending: Number(row.signups_pending) },
    };
  }
}
