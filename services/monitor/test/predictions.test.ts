import { SPENDING_LIMIT_SETTING, setSetting } from '@sprout/domain';
import { JobQueues, Metrics, loadConfig } from '@sprout/platform';
import { type TestRedis, addUserWithConversation, startOnStores, useClosable } from '@sprout/testing';
import type { DataSource } from 'typeorm';
import { monitorConfig } from '../src/config';
import { PredictionsService } from '../src/predictions/predictions.service';
import {
  type MonitorSample,
  monitorKeys,
  readPredictions,
  readSystemHealth,
  readTrends,
} from '../src/state/monitor-state';

const MINUTE = 60_000;

// The prediction run on its own (no scheduler beside it) over seeded messages and model calls.
describe('predictions over seeded data', () => {
  let redis: TestRedis;
  let queues: JobQueues;
  let predictions: PredictionsService;
  let ds: DataSource;
  let userId: string;
  let conversationId: string;
  // A fixed instant: every query is bounded by it, so the seeded rows need not be in real time.
  const now = new Date('2025-06-15T12:02:30Z');
  const h = useClosable(() =>
    startOnStores(
      async (stores) => new JobQueues({ connection: stores.redis.connection, prefix: stores.redis.prefix }),
    ),
  );

  beforeAll(async () => {
    ({ ds, redis, service: queues } = h);
    predictions = new PredictionsService(
      ds,
      redis.connection,
      queues,
      loadConfig(monitorConfig, {}, h.config),
      new Metrics('monitor-test', false),
    );
    ({ userId, conversationId } = await addUserWithConversation(ds, '+15035550100'));
  });

  beforeEach(async () => {
    await ds.query('DELETE FROM "llm_calls"');
    await ds.query('DELETE FROM "messages"');
    await ds.query('DELETE FROM "settings"');
    await redis.connection.del(monitorKeys(redis.prefix).samples);
  });

  const reply = async (minutesAgo: number, responseTimeMs: number, status = 'delivered'): Promise<void> => {
    await ds.query(
      `INSERT INTO "messages" ("user_id", "conversation_id", "direction", "content", "status", "response_time_ms", "created_at")
       VALUES ($1, $2, 'outbound', 'Water deeply once a week.', $3, $4, $5)`,
      [userId, conversationId, status, responseTimeMs, new Date(now.getTime() - minutesAgo * MINUTE)],
    );
  };
  const modelCall = async (
    minutesAgo: number,
    options: { error?: string; cost?: number } = {},
  ): Promise<void> => {
    await ds.query(
      `INSERT INTO "llm_calls" ("purpose", "model", "tier", "cost", "error", "latency_ms", "created_at")
       VALUES ('reply', 'gpt-4o-mini', 'primary', $1, $2, 900, $3)`,
      [options.cost ?? 0.001, options.error ?? null, new Date(now.getTime() - minutesAgo * MINUTE)],
    );
  };

  it('predicts nothing on a calm hour and still records trends and resources', async () => {
    for (let m = 1; m < 60; m += 5) {
      await reply(m, 1500);
      await modelCall(m);
    }
    const state = await predictions.run(now);

    expect(state.predictions.predictions).toEqual([]);
    expect(state.system.status).toBe('normal');
    expect(state.system.metrics.averageResponseTime).toBe(1500);
    expect(state.system.metrics.errorRate).toBe(0);
    expect(state.system.metrics.resourceUtilization.heapUsed).toBeGreaterThan(0);
    expect(state.system.metrics.resourceUtilization.rss).toBeGreaterThanOrEqual(
      state.system.metrics.resourceUtilization.heapTotal,
    );
    expect(state.trends.trends.responseTimeHistory).toHaveLength(12);
    expect(state.trends.trends.responseTimeHistory.every((p) => p.value === 1.5)).toBe(true);
  });

  it('predicts rising errors, slowing replies and spend near the limit, and stores them in Redis', async () => {
    await setSetting(ds.manager, SPENDING_LIMIT_SETTING, 10);
    // Baseline (20 to 55 minutes ago): quick replies, clean model calls, small spend.
    for (let m = 20; m <= 55; m += 5) {
      await reply(m, 2000);
      await reply(m + 1, 2000);
      await modelCall(m, { cost: 0.5 });
    }
    // Recent (last 15 minutes): slow replies, failures, expensive calls.
    for (const m of [1, 4, 7, 10, 12]) {
      await reply(m, 12_000);
      await reply(m, 12_000, 'failed');
      await modelCall(m, { error: 'OpenAI request timed out', cost: 0 });
      await modelCall(m, { cost: 0.4 });
    }
    // Yesterday's spend does not count towards today.
    await modelCall(13 * 60, { cost: 25 });

    const state = await predictions.run(now);
    const byType = Object.fromEntries(state.predictions.predictions.map((p) => [p.type, p]));

    // 5 failed replies + 5 failed calls of 20 operations.
    expect(byType.error_rate_increase).toMatchObject({
      severity: 'high',
      currentRate: 50,
      percentageChange: 100,
    });
    expect(byType.response_time_degradation).toMatchObject({
      severity: 'medium',
      currentRate: 12,
      percentageChange: 500,
    });
    // Today: 8 x 0.5 + 5 x 0.4 = 6 of 10 (60 %); at the last hour's $6 pace the limit is 40 minutes away.
    expect(byType.spending_limit).toMatchObject({
      severity: 'medium',
      confidence: 'low',
      timeframe: 'next 1 hour',
      currentRate: 6,
      percentageChange: 60,
    });
    expect(state.system.status).toBe('critical');
    expect(state.system.activePredictions).toBe(3);

    const errorTrend = state.trends.trends.errorRateHistory;
    expect(errorTrend.slice(-3).map((p) => p.value)).toEqual([50, 50, 50]);
    expect(errorTrend.slice(0, 8).every((p) => p.value === 0)).toBe(true);
    expect(state.trends.trends.responseTimeHistory.at(-1)?.value).toBe(12);

    expect(await readPredictions(redis.connection, redis.prefix)).toEqual(state.predictions);
    expect(await readTrends(redis.connection, redis.prefix)).toEqual(state.trends);
    expect(await readSystemHealth(redis.connection, redis.prefix)).toEqual(state.system);
    expect(await redis.connection.ttl(`${redis.prefix}:monitor:predictions`)).toBeGreaterThan(0);
  });

  it('counts waiting jobs as queue depth', async () => {
    await queues.enqueue('conversation.summarize', { conversationId });
    const state = await predictions.run(now);
    expect(state.system.metrics.queueDepth).toBeGreaterThanOrEqual(1);
  });

  it('predicts a growing queue and growing memory from the injected samples of the last hour', async () => {
    // 19 minutes of samples before now: sms.inbound from 30 jobs waiting upwards, the heap growing.
    const heapNow = process.memoryUsage().heapUsed;
    const injected: MonitorSample[] = Array.from({ length: 59 }, (_, i) => {
      const minutesAgo = 59 - i;
      return {
        at: new Date(now.getTime() - minutesAgo * MINUTE).toISOString(),
        waiting: { 'sms.inbound': minutesAgo > 15 ? 30 : 30 + (15 - minutesAgo) * 8 },
        heapUsedBytes: Math.round(heapNow * (0.3 + (0.7 * i) / 58)),
      };
    });
    const key = monitorKeys(redis.prefix).samples;
    await redis.connection.lpush(key, ...injected.map((sample) => JSON.stringify(sample)));
    // Now: 150 real jobs waiting on sms.inbound, with no worker to take them.
    const ids = Array.from(
      { length: 150 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    for (const messageId of ids) await queues.enqueue('sms.inbound', { messageId });

    const state = await predictions.run(now);
    const byType = Object.fromEntries(state.predictions.predictions.map((p) => [p.type, p]));
    expect(byType.queue_backlog).toMatchObject({
      severity: 'medium',
      currentRate: 150,
      percentageChange: 400,
      timeframe: 'next 30 minutes',
    });
    expect(byType.queue_backlog?.recommendedActions[0]).toMatch(/^sms\.inbound: 150 jobs waiting/);
    expect(byType.memory_growth).toMatchObject({ confidence: 'high' });
    expect(byType.memory_growth?.percentageChange).toBeGreaterThan(100);
    expect(state.system.status).not.toBe('normal');
    expect(await readPredictions(redis.connection, redis.prefix)).toEqual(state.predictions);

    // The next minute's run keeps the samples: the newest is the one just taken.
    const kept = await redis.connection.lrange(key, 0, 0);
    expect(JSON.parse(kept[0] ?? '{}')).toMatchObject({
      at: now.toISOString(),
      waiting: { 'sms.inbound': 150 },
    });
    await queues.queue('sms.inbound').obliterate({ force: true });
  });
});
