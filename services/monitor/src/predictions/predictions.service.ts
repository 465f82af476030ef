import { getHeapStatistics } from 'node:v8';
import { Inject, Injectable } from '@nestjs/common';
import type { PredictionsResponse, ProactiveSystemHealth, TrendsResponse } from '@sprout/contracts';
import { DEFAULT_SPENDING_LIMIT, SPENDING_LIMIT_SETTING, getSetting } from '@sprout/domain';
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

export interface ProactiveState {
  trends: TrendsResponse;
  predictions: PredictionsResponse;
  system: ProactiveSystemHealth;
}

interface BucketRow {
  bucket: number;
  timed: number;
  response_ms: number;
  operations: number;
  errors: number;
}

@Injectable()
export class PredictionsService {
  private readonly activeGauge;

  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis,
    private readonly queues: JobQueues,
    @Inject(CONFIG) private readonly config: MonitorConfig,
    metrics: Metrics,
  ) {
    this.activeGauge = metrics.gauge(
      'sprout_monitor_active_predictions',
      'Predictions raised by the last run',
      ['severity'] as const,
    );
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
      this.activeGauge.set({ severity }, predictions.filter((p) => p.severity === severity).length);
    }
    return state;
  }

  /**
   * Per 5-minute bucket: outbound reply response times, and operations with their errors (model
   * calls of the primary and fallback tiers with an error; outbound messages failed or undelivered).
   * Both tables are read through their created_at indexes.
   */
  private async buckets(windowStart: Date, now: Date): Promise<BucketSample[]> {
    const params = [windowStart.getTime(), BUCKET_MS, windowStart, now];
    const bucketOf = `floor((extract(epoch from "created_at") * 1000 - $1) / $2)::int`;
    const [messages, calls] = await Promise.all([
      this.dataSource.query<BucketRow[]>(
        `SELECT ${bucketOf} AS bucket,
                count(*) FILTER (WHERE "response_time_ms" IS NOT NULL)::int AS timed,
                coalesce(sum("response_time_ms"), 0)::float8 AS response_ms,
                count(*)::int AS operations,
                count(*) FILTER (WHERE "status" IN ('failed', 'undelivered'))::int AS errors
           FROM "messages"
          WHERE "direction" = 'outbound' AND "created_at" >= $3 AND "created_at" <= $4
          GROUP BY 1`,
        params,
      ),
      this.dataSource.query<BucketRow[]>(
        `SELECT ${bucketOf} AS bucket, 0 AS timed, 0::float8 AS response_ms,
                count(*)::int AS operations,
                count(*) FILTER (WHERE "error" IS NOT NULL)::int AS errors
           FROM "llm_calls"
          WHERE "tier" IN ('primary', 'fallback') AND "created_at" >= $3 AND "created_at" <= $4
          GROUP BY 1`,
        params,
      ),
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
    const [row] = await this.dataSource.query<
      Array<{ today: string; last_hour: string; calls_last_hour: number }>
    >(
      `SELECT coalesce(sum("cost") FILTER (WHERE "created_at" >= $1), 0)::text AS today,
              coalesce(sum("cost") FILTER (WHERE "created_at" >= $2), 0)::text AS last_hour,
              (count(*) FILTER (WHERE "created_at" >= $2 AND "model" IS NOT NULL))::int AS calls_last_hour
         FROM "llm_calls"
        WHERE "created_at" >= least($1::timestamptz, $2::timestamptz) AND "created_at" <= $3`,
      [midnight, hourAgo, now],
    );
    const limit = Number(
      await getSetting<number>(this.dataSource.manager, SPENDING_LIMIT_SETTING, DEFAULT_SPENDING_LIMIT),
    );
    return {
      spentToday: Number(row?.today ?? 0),
      spentLastHour: Number(row?.last_hour ?? 0),
      callsLastHour: Number(row?.calls_last_hour ?? 0),
      limit: Number.isFinite(limit) ? limit : DEFAULT_SPENDING_LIMIT,
      now,
    };
  }
}
