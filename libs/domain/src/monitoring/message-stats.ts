import type { DataSource } from 'typeorm';
import { queryPrepared } from '../prepared-query';

export type MessageStatsRow = Record<
  'total' | 'failed' | 'today' | 'yesterday_so_far' | 'inbound_24h' | 'replies_24h',
  string
>;

/** The windows of the Messages page's cards (UTC hours and days; the head hour counted on messages). */
export interface MessageStatsWindows {
  yesterday: Date;
  today: Date;
  /** The UTC hour holding the start of the last 24 hours, and the end of that hour. */
  headHourStart: Date;
  wholeHoursFrom: Date;
  /** The start of the last 24 hours. */
  dayFrom: Date;
}

/**
 * The Messages page's counts from the rollups: all time (rollup_totals), today and yesterday up to
 * the same time (rollup_hourly, the head hour on messages), inbound and replies in the last 24 hours.
 */
export async function messageStats(
  dataSource: DataSource,
  testData: boolean,
  w: MessageStatsWindows,
): Promise<MessageStatsRow | undefined> {
  const rows = await queryPrepared<MessageStatsRow>(
    dataSource,
    `WITH hourly AS (
         SELECT metric, hour, count FROM rollup_hourly
          WHERE metric IN ('messages_inbound', 'messages_reply', 'messages_proactive')
            AND is_test_user = $1 AND hour >= $2
       ), head AS (
         SELECT created_at, rollup_message_metric(direction, kind) AS metric FROM messages
          WHERE is_test_user = $1 AND created_at >= $4 AND created_at < $5
       )
       SELECT
         (SELECT coalesce(sum(count), 0) FROM rollup_totals
           WHERE metric IN ('messages_inbound', 'messages_reply', 'messages_proactive')
             AND is_test_user = $1) AS total,
         (SELECT coalesce(sum(count), 0) FROM rollup_totals
           WHERE metric = 'messages_failed' AND is_test_user = $1) AS failed,
         (SELECT coalesce(sum(count), 0) FROM hourly WHERE hour >= $3) AS today,
         (SELECT coalesce(sum(count), 0) FROM hourly WHERE hour < $4)
           + (SELECT count(*) FROM head WHERE created_at < $6) AS yesterday_so_far,
         (SELECT coalesce(sum(count), 0) FROM hourly WHERE metric = 'messages_inbound' AND hour >= $5)
           + (SELECT count(*) FROM head WHERE created_at >= $6 AND metric = 'messages_inbound') AS inbound_24h,
         (SELECT coalesce(sum(count), 0) FROM hourly WHERE metric = 'messages_reply' AND hour >= $5)
           + (SELECT count(*) FROM head WHERE created_at >= $6 AND metric = 'messages_reply') AS replies_24h`,
    [testData, w.yesterday, w.today, w.headHourStart, w.wholeHoursFrom, w.dayFrom],
  );
  return rows[0];
}
