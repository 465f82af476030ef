import { getHeapStatistics } from 'node:v8';
import { Inject, Injectable } from '@nestjs/common';
import type { PredictionsResponse, ProactiveSystemHealth, TrendsResponse } from '@sprout/contracts';
import {
  DEFAULT_SPENDING_LIMIT,
  SPENDING_LIMIT_SETTING,
  getSetting,
  modelCallBuckets,
  outboundMessageBuckets,
  recentModelSpend,
} from '@sprout/domain';
import { CONFIG, JobQueues, Metrics } from '@sprout/platform';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { type MonitorConfig } from '../config';
import { addSample, readServiceHealth, writeProactiveState } from '../state/monitor-state';
import {
  BUCKET_COUNT,
  BUCKET_MS,
  type BucketSample,
  type SpendSnapshot,
  emptyBucket,
  predict,
  resourceUtilizationOf,
  statsOf,
  systemStatusOf,
  trendsOf,
  windowStartOf,
} from './prediction-rules';
import { monitorMetrics } from '../metrics';

export interface ProactiveState {
  trends: TrendsResponse;
  predictions: PredictionsResponse;
  system: ProactiveSystemHealth;
}

@Injectable()
export class PredictionsService {
  private readonly metrics;

  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis,
    private readonly queues: JobQueues,
    @Inject(CONFIG) private readonly config: MonitorConfig,
    metrics: Metrics,
  ) {
    this.metrics = monitorMetrics(metrics);
  }

  /** Reads the last hour, derives trends and predictions, stores them in Redis and answers them. */
  async run(now: Date = new Date()): Promise<ProactiveState> {
    const windowStart = windowStartOf(now);
    const [buckets, spend, counts, health] = await Promise.all([
      this.buckets(windowStart, now),
      this.spend(now),
      this.queues.counts(),
      readServiceHealth(this.redis, this.config.bullmqPrefix),
    ]);
    const usage = process.memoryUsage();
    const kept = await addSample(this.redis, this.config.bullmqPrefix, {
      at: now.toISOString(),
      waiting: Object.fromEntries(Object.entries(counts).map(([queue, c]) => [queue, c.waiting ?? 0])),
      heapUsedBytes: usage.heapUsed,
    });
    // The last hour up to now (a run for an earlier instant, as tests do, ignores later samples).
    const samples = kept.filter((s) => {
      const at = Date.parse(s.at);
      return at <= now.getTime() && at > now.getTime() - 3_600_000;
    });
    const predictions = predict({
      buckets,
      spend,
      memory: { heapUsedBytes: usage.heapUsed, heapLimitBytes: getHeapStatistics().heap_size_limit },
      samples,
    });
    // Jobs waiting, delayed or running across every queue.
    const queueDepth = Object.values(counts).reduce(
      (sum, perState) => sum + (perState.waiting ?? 0) + (perState.active ?? 0) + (perState.delayed ?? 0),
      0,
    );
    const hour = statsOf(buckets);
    const timestamp = now.toISOString();
    const state: ProactiveState = {
      trends: { trends: trendsOf(buckets, windowStart), timestamp },
      predictions: { predictions, timestamp },
      system: {
        status: systemStatusOf(predictions, health?.overallHealth ?? null),
        timestamp,
        activePredictions: predictions.length,
        metrics: {
          resourceUtilization: resourceUtilizationOf(usage),
          averageResponseTime: Math.round((hour.averageResponseSeconds ?? 0) * 1000),
          errorRate: Math.round((hour.errorRate ?? 0) * 10) / 10,
          queueDepth,
        },
      },
    };
    await writeProactiveState(this.redis, this.config.bullmqPrefix, state);
    for (const severity of ['high', 'medium', 'low'] as const) {
      this.metrics.activePredictions.set(
        { severity },
        predictions.filter((p) => p.severity === severity).length,
      );
    }
    return state;
  }

  /**
   * Per 5-minute bucket: outbound reply response times, and operations with their errors (model
   * calls of the primary and fallback tiers with an error; outbound messages failed or undelivered).
   */
  private async buckets(windowStart: Date, now: Date): Promise<BucketSample[]> {
    const window = { start: windowStart, end: now, bucketMs: BUCKET_MS };
    const [messages, calls] = await Promise.all([
      outboundMessageBuckets(this.dataSource, window),
      modelCallBuckets(this.dataSource, window),
    ]);
    const buckets = Array.from({ length: BUCKET_COUNT }, emptyBucket);
    for (const row of [...messages, ...calls]) {
      const bucket = buckets[Number(row.bucket)];
      if (bucket === undefined) continue;
      bucket.timedResponses += Number(row.timed);
      bucket.responseTimeMsTotal += Number(row.response_ms);
      bucket.operations += Number(row.operations);
      bucket.errors += Number(row.errors);
    }
    return buckets;
  }

  private async spend(now: Date): Promise<SpendSnapshot> {
    const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const hourAgo = new Date(now.getTime() - 3_600_000);
    const spent = await recentModelSpend(this.dataSource, midnight, hourAgo, now);
    const limit = Number(
      await getSetting<number>(this.dataSource.manager, SPENDING_LIMIT_SETTING, DEFAULT_SPENDING_LIMIT),
    );
    return {
      ...spent,
      limit: Number.isFinite(limit) ? limit : DEFAULT_SPENDING_LIMIT,
      now,
    };
  }
}
