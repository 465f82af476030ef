import { Injectable } from '@nestjs/common';
import { queryPrepared } from '@sprout/platform';
import { DataSource } from 'typeorm';
import type { DashboardMetricsResponse } from '@sprout/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC at the start of the given instant's day. */
export const startOfUtcDay = (now: Date): Date =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

type MetricsRow = {
  active_users: string;
  messages_today: string;
  avg_response_ms: string | null;
  todays_cost: string;
  todays_sms_cost: string;
  signups_total: string;
  signups_pending: string;
};

@Injectable()
export class DashboardService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The overview figures for either real users' data (testData false) or test users' data only.
   * Every figure of today or the last 24 hours reads an index range alone: active users are those
   * whose last message is at most a day old (as on the Users screen), messages and model calls
   * come from (is_test_user, created_at) indexes that carry what they sum (today's messages in one
   * pass for the count and the average response time). The statement is prepared.
   */
  async metrics(testData: boolean, now: Date = new Date()): Promise<DashboardMetricsResponse> {
    const dayAgo = new Date(now.getTime() - DAY_MS);
    const today = startOfUtcDay(now);
    const rows = await queryPrepared<MetricsRow>(
      this.dataSource,
      `SELECT
         (SELECT count(*) FROM users
           WHERE is_test_user = $3 AND last_message_at >= $1) AS active_users,
         today.messages_today,
         today.avg_response_ms,
         (SELECT coalesce(sum(cost), 0) FROM llm_calls
           WHERE is_test_user = $3 AND created_at >= $2) AS todays_cost,
         -- The SMS ledger holds what was sent; test users' messages never are.
         CASE WHEN $3 THEN 0 ELSE (SELECT coalesce(sum(cost), 0) FROM sms_spend_buckets
           WHERE bucket >= $2) END AS todays_sms_cost,
         (SELECT count(*) FROM beta_signups) AS signups_total,
         (SELECT count(*) FROM beta_signups WHERE status = 'pending') AS signups_pending
       FROM (SELECT count(*) AS messages_today,
                    avg(response_time_ms) FILTER (WHERE direction = 'outbound') AS avg_response_ms
               FROM messages WHERE is_test_user = $3 AND created_at >= $2) today`,
      [dayAgo, today, testData],
    );
    const row = rows[0];
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
