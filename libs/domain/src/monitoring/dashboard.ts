import type { DataSource } from 'typeorm';
import { queryPrepared } from '../prepared-query';

export type DashboardMetricsRow = {
  active_users: string;
  messages_today: string;
  avg_response_ms: string | null;
  todays_cost: string;
  todays_sms_cost: string;
  signups_total: string;
  signups_pending: string;
};

/**
 * The overview figures for either real users' data (testData false) or test users' data only.
 * Every figure of today or the last 24 hours reads an index range alone: active users are those
 * whose last message is at or after `dayAgo` (as on the Users screen), messages and model calls
 * come from (is_test_user, created_at) indexes that carry what they sum (today's messages in one
 * pass for the count and the average response time). The statement is prepared.
 */
export async function dashboardMetrics(
  dataSource: DataSource,
  testData: boolean,
  dayAgo: Date,
  today: Date,
): Promise<DashboardMetricsRow | undefined> {
  const rows = await queryPrepared<DashboardMetricsRow>(
    dataSource,
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
  return rows[0];
}
