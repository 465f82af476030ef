import { Injectable } from '@nestjs/common';
import type { MessageStats } from '@sprout/contracts';
import { DataSource } from 'typeorm';
import { messageStats } from '@sprout/domain';
import { DAY_MS, percent, rollingWindow, startOfUtcDay } from '../users/time-windows';

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
    const row = await messageStats(this.dataSource, testData, {
      yesterday,
      today,
      headHourStart: day.headHourStart,
      wholeHoursFrom: day.wholeHoursFrom,
      dayFrom: day.from,
    });
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
