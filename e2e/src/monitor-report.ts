// What the monitor service writes after a quiet prediction round, for browser tests that walk the
// console without running the monitor (its own pages are tested against the real one).
import {
  PROACTIVE_STATE_TTL_SECONDS,
  type PredictionsResponse,
  type ProactiveSystemHealth,
  type TrendsResponse,
  monitorStateKeys,
} from '@sprout/contracts';
import type { TestRedis } from '@sprout/testing';

export async function reportQuietMonitor(redis: TestRedis): Promise<void> {
  const timestamp = new Date().toISOString();
  const keys = monitorStateKeys(redis.prefix);
  const system: ProactiveSystemHealth = {
    status: 'normal',
    timestamp,
    activePredictions: 0,
    metrics: {
      resourceUtilization: { heapUsed: 60, heapTotal: 90, rss: 140, external: 4 },
      averageResponseTime: 0,
      errorRate: 0,
      queueDepth: 0,
    },
  };
  const predictions: PredictionsResponse = { predictions: [], timestamp };
  const trends: TrendsResponse = { trends: { responseTimeHistory: [], errorRateHistory: [] }, timestamp };
  await redis.connection
    .multi()
    .set(keys.system, JSON.stringify(system), 'EX', PROACTIVE_STATE_TTL_SECONDS)
    .set(keys.predictions, JSON.stringify(predictions), 'EX', PROACTIVE_STATE_TTL_SECONDS)
    .set(keys.trends, JSON.stringify(trends), 'EX', PROACTIVE_STATE_TTL_SECONDS)
    .exec();
}
