import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import {
  type CurrentTier,
  FAILURE_THRESHOLDS,
  FALLBACK_CHAIN,
  HEALTH_STALE_AFTER_SECONDS,
  MONITORED_SERVICES,
  MONITORED_SERVICE_LABELS,
  type MonitoredService,
  PROACTIVE_STATE_MISSING,
  type PredictionsResponse,
  type ProactiveSystemHealth,
  QUEUE_FAILURE_THRESHOLD,
  QUEUE_NAMES,
  type QueueCheck,
  type ServiceCheck,
  type ServiceHealth,
  type ServiceHealthReport,
  StoredCurrentTier,
  StoredOverallHealth,
  StoredQueueCheck,
  StoredServiceCheck,
  type TrendsResponse,
  jobResultSchemas,
  monitorStateKeys,
} from '@sprout/contracts';
import { CONFIG } from '@sprout/platform';
import { Redis } from 'ioredis';
import type { z } from 'zod';
import type { ApiGatewayConfig } from '../config';

/** Reading the monitor's state gives up after this long (Redis down: commands wait for a reconnect). */
export const STATE_READ_TIMEOUT_MS = 3_000;
export const STATE_UNREADABLE = "The monitor's state could not be read from Redis.";

const parse = <S extends z.ZodType>(schema: S, text: string | null | undefined): z.output<S> | null => {
  if (text === null || text === undefined) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

const proactiveSchemas = jobResultSchemas['monitor.predict'].shape;

const isMonitoredService = (name: string): name is MonitoredService =>
  (MONITORED_SERVICES as readonly string[]).includes(name);

/**
 * The monitor's state in Redis (written by services/monitor under contracts' monitorStateKeys),
 * as the console's pages show it. The api-gateway never computes health or predictions itself:
 * what the monitor has not recorded is shown as not checked (health) or not available (proactive).
 */
@Injectable()
export class MonitorStateReader {
  private readonly keys;

  constructor(
    private readonly redis: Redis,
    @Inject(CONFIG) config: ApiGatewayConfig,
  ) {
    this.keys = monitorStateKeys(config.bullmqPrefix);
  }

  /**
   * Every monitored service and queue with its last check. One never checked (no monitor has run
   * yet) is unavailable with lastCheck null; overall health is then degraded, and stale says the
   * monitor has not completed a round for HEALTH_STALE_AFTER_SECONDS.
   */
  async serviceHealth(now: Date = new Date()): Promise<ServiceHealthReport> {
    const [servicesText, queuesText, overallText, tierText] = await this.read(
      Promise.all([
        this.redis.hgetall(this.keys.services),
        this.redis.hgetall(this.keys.queues),
        this.redis.get(this.keys.overall),
        this.redis.get(this.keys.tier),
      ]),
    );
    const overall = parse(StoredOverallHealth, overallText);

    const services: Record<string, ServiceCheck> = {};
    const names = [...MONITORED_SERVICES, ...Object.keys(servicesText).filter((n) => !isMonitoredService(n))];
    for (const name of names) {
      const stored = parse(StoredServiceCheck, servicesText[name]);
      services[name] = {
        label: isMonitoredService(name) ? MONITORED_SERVICE_LABELS[name] : name,
        threshold: isMonitoredService(name) ? FAILURE_THRESHOLDS[name] : 1,
        ...(stored ?? {
          available: false,
          lastCheck: null,
          consecutiveFailures: 0,
          lastError: null,
          latencyMs: null,
          detail: null,
        }),
      };
    }

    const queues: QueueCheck[] = QUEUE_NAMES.map((queue) => {
      const stored = parse(StoredQueueCheck, queuesText[queue]);
      return {
        queue,
        threshold: QUEUE_FAILURE_THRESHOLD,
        ...(stored ?? {
          available: false,
          lastCheck: null,
          consecutiveFailures: 0,
          waiting: 0,
          active: 0,
          delayed: 0,
          failed: 0,
          workers: 0,
          oldestWaitingSeconds: null,
          problem: null,
        }),
      };
    });

    const current: CurrentTier = parse(StoredCurrentTier, tierText) ?? { tier: null, at: null };
    const lastRoundAt = overall?.timestamp ?? null;
    return {
      overallHealth: overall?.overallHealth ?? 'degraded',
      timestamp: lastRoundAt ?? now.toISOString(),
      services,
      queues,
      fallback: { chain: FALLBACK_CHAIN, current },
      lastRoundAt,
      stale:
        lastRoundAt === null || now.getTime() - Date.parse(lastRoundAt) > HEALTH_STALE_AFTER_SECONDS * 1000,
    };
  }

  /** The state after a forced round: the job's own answer wins over what Redis held a moment ago. */
  async afterForcedRound(result: ServiceHealth): Promise<ServiceHealthReport> {
    const report = await this.serviceHealth();
    for (const [name, status] of Object.entries(result.services)) {
      const known = report.services[name];
      if (known !== undefined) Object.assign(known, status);
    }
    return {
      ...report,
      overallHealth: result.overallHealth,
      timestamp: result.timestamp,
      lastRoundAt: result.timestamp,
      stale: false,
    };
  }

  systemHealth(): Promise<ProactiveSystemHealth> {
    return this.proactive(this.keys.system, proactiveSchemas.system);
  }

  predictions(): Promise<PredictionsResponse> {
    return this.proactive(this.keys.predictions, proactiveSchemas.predictions);
  }

  trends(): Promise<TrendsResponse> {
    return this.proactive(this.keys.trends, proactiveSchemas.trends);
  }

  /** A proactive value; 503 when the monitor has not written it within its lifetime. */
  private async proactive<S extends z.ZodType>(key: string, schema: S): Promise<z.output<S>> {
    const value = parse(schema, await this.read(this.redis.get(key)));
    if (value === null) throw new ServiceUnavailableException(PROACTIVE_STATE_MISSING);
    return value;
  }

  private async read<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        work,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new ServiceUnavailableException(STATE_UNREADABLE)),
            STATE_READ_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      if (error instanceof ServiceUnavailableException) throw error;
      throw new ServiceUnavailableException(STATE_UNREADABLE);
    } finally {
      clearTimeout(timer);
    }
  }
}
