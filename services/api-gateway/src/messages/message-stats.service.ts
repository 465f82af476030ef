import { Injectable } from '@nestjs/common';
import type { MessageStats } from '@sprout/contracts';
import { DataSource } from 'typeorm';
import { queryPrepared } from '@sprout/platform';
import { DAY_MS, percent, rollingWindow, startOfUtcDay } from '../users/time-windows';

type StatsRow = Record<
  'total' | 'failed' | 'today' | 'yesterday_so_far' | 'inbound_24h' | 'replies_24h',
  string
>;

/**
 * The four cards of the Messages page, from the rollups (migration AdminInsightIndexes):
 * - totalMessages: all time, rollup_totals (kept exact by triggers; an exact count(*) over 10M
 *   rows would scan ~a second per poll, pg_class.reltuples is an estimate and has no test flag).
 * - messagesToday: the UTC day's hours in rollup_hourly; changePercent compares it with yesterday
 *   up to the same time of day (0 when yesterday had none by then).
 * - responseRate: replies (outbound except surveys) per inbound message in the last 24 hours, in
 *   percent, at most 100; whole hours from rollup_hourly plus the first, partial hour counted on
 *   messages by its (is_test_user, created_at) index.
 * - failedMessages: all time, status failed or undelivered (rollup_totals).
 */
@Injectable()
export class MessageStatsService {
  constructor(private readonly dataSource: DataSource) {}

  async stats(testData: boolean, now: Date = new Date()): Promise<MessageStats> {
    const today = startOfUtcDay(now);
    const yesterday = new Date(today.getTime() - DAY_MS);
    const day = rollingWindow(now, DAY_MS);
    const rows = await queryPrepared<StatsRow>(
      this.dataSource,
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
      [testData, yesterday, today, day.headHourStart, day.wholeHoursFrom, day.from],
    );
    const row = rows[0];
    if (row === undefined) throw new Error('Message stats query returned no row');
    const messagesToday = Number(row.today);
    const yesterdaySoFar = Number(row.yesterday_so_far);
    const inbound = Number(row.inbound_24h);
    return {
      totalMessages: Number(row.total),
      messagesToday,
      changePercent: yesterdaySoFar > 0 ? percent(messagesToday - yesterdaySoFar, yesterdaySoFar) : 0,
      responseRate: Math.min(100, percent(Number(row.replies_24h), inbound)),
      failedMessages: Number(row.failed),
    };
  }
}
