import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import {
  type CurrentTier,
  FAILURE_THRESHOLDS,
  FALLBACK_CHAIN,
  FALLBACK_TIERS,
  type FallbackTier,
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
  SMS_CIRCUIT_INITIAL,
  type SmsCircuitState,
  type SmsSending,
  StoredCurrentTier,
  StoredOverallHealth,
  StoredQueueCheck,
  StoredServiceCheck,
  type TrendsResponse,
  jobResultSchemas,
  monitorStateKeys,
  smsCircuitKey,
  smsCircuitStateSchema,
} from '@sprout/contracts';
import { newestAnsweredReply, pingDatabase } from '@sprout/domain';
import { CONFIG } from '@sprout/platform';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import type { z } from 'zod';
import type { ApiGatewayConfig } from '../config';

/** Reading the monitor's state gives up after this long (Redis down: commands wait for a reconnect). */
export const STATE_READ_TIMEOUT_MS = 3_000;
export const STATE_UNREADABLE = "The monitor's state could not be read from Redis.";
/** The api-gateway's own look at Postgres, while the monitor's state cannot be read, gives up after this long. */
const DATABASE_CHECK_TIMEOUT_MS = 3_000;
export const NOT_CHECKED_WITHOUT_REDIS =
  'Not checked: only the monitor checks this, and its results are kept in Redis, which is unreachable.';
export const QUEUE_UNKNOWN_WITHOUT_REDIS = 'Not known: the queues are kept in Redis, which is unreachable.';

export const REDIS_UNREACHABLE =
  'Redis is unreachable: the queues and the monitor cannot be reached until it answers again.';

/** ioredis states in which a command would only wait in its offline queue for a reconnect. */
export const redisIsDown = (redis: Redis): boolean => ['reconnecting', 'close', 'end'].includes(redis.status);

/** A read of Redis that failed or timed out; the message says which. */
class RedisReadError extends Error {}

const withTimeout = async <T>(work: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A queue with nothing known of it (not checked yet, or its state unreadable): counted unavailable. */
const unknownQueue = (queue: QueueCheck['queue'], problem: string | null): QueueCheck => ({
  queue,
  threshold: QUEUE_FAILURE_THRESHOLD,
  available: false,
  lastCheck: null,
  consecutiveFailures: 0,
  waiting: 0,
  active: 0,
  delayed: 0,
  failed: 0,
  workers: 0,
  oldestWaitingSeconds: null,
  problem,
});

const parse = <S extends z.ZodType>(schema: S, text: string | null | undefined): z.output<S> | null => {
  if (text === null || text === undefined) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

const isoOrNull = (epochMs: number | null): string | null =>
  epochMs === null ? null : new Date(epochMs).toISOString();

/** The circuit as the page shows it; an absent key is the initial closed state. */
const smsSendingOf = (text: string | null): SmsSending | null => {
  const circuit: SmsCircuitState | null =
    text === null ? SMS_CIRCUIT_INITIAL : parse(smsCircuitStateSchema, text);
  if (circuit === null) return null;
  return {
    state: circuit.state,
    consecutiveFailures: circuit.consecutiveFailures,
    openedAt: isoOrNull(circuit.openedAt),
    retryAt: isoOrNull(circuit.retryAt),
    lastError: circuit.lastError,
    updatedAt: circuit.updatedAt === 0 ? null : isoOrNull(circuit.updatedAt),
  };
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
  private readonly smsCircuitKey: string;
  /** The api-gateway's own consecutive failures, counted while it cannot read the monitor's state. */
  private redisReadFailures = 0;
  private databaseFailures = 0;

  constructor(
    private readonly redis: Redis,
    private readonly dataSource: DataSource,
    @Inject(CONFIG) config: ApiGatewayConfig,
  ) {
    this.keys = monitorStateKeys(config.bullmqPrefix);
    this.smsCircuitKey = smsCircuitKey(config.bullmqPrefix);
  }

  /**
   * Every monitored service and queue with its last check. One never checked (no monitor has run
   * yet) is unavailable with lastCheck null; overall health is then degraded, and stale says the
   * monitor has not completed a round for HEALTH_STALE_AFTER_SECONDS.
   */
  async serviceHealth(now: Date = new Date()): Promise<ServiceHealthReport> {
    const startedAt = Date.now();
    let state: [Record<string, string>, Record<string, string>, string | null, string | null, string | null];
    try {
      state = await this.readRedis(() =>
        Promise.all([
          this.redis.hgetall(this.keys.services),
          this.redis.hgetall(this.keys.queues),
          this.redis.get(this.keys.overall),
          this.redis.get(this.keys.tier),
          this.redis.get(this.smsCircuitKey),
        ]),
      );
    } catch (error) {
      return this.withoutRedis(messageOf(error), Date.now() - startedAt, now);
    }
    this.redisReadFailures = 0;
    const [servicesText, queuesText, overallText, tierText, circuitText] = state;
    const overall = parse(StoredOverallHealth, overallText);

    const services: Record<string, ServiceCheck> = {};
    const names = [...MONITORED_SERVICES, ...Object.keys(servicesText).filter((n) => !isMonitoredService(n))];
    for (const name of names) {
      const stored = parse(StoredServiceCheck, servicesText[name]);
      services[name] = {
        label: isMonitoredService(name) ? MONITORED_SERVICE_LABELS[name] : name,
        threshold: isMonitoredService(name) ? FAILURE_THRESHOLDS[name] : 1,
        ...(stored === null
          ? {
              available: false,
              lastCheck: null,
              consecutiveFailures: 0,
              lastError: null,
              latencyMs: null,
              detail: null,
              checkedBy: null,
            }
          : { ...stored, checkedBy: 'monitor' as const }),
      };
    }

    const queues: QueueCheck[] = QUEUE_NAMES.map((queue) => {
      const stored = parse(StoredQueueCheck, queuesText[queue]);
      return stored === null
        ? unknownQueue(queue, null)
        : { queue, threshold: QUEUE_FAILURE_THRESHOLD, ...stored };
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
      monitorStateError: null,
      smsSending: smsSendingOf(circuitText),
    };
  }

  /**
   * The report while Redis cannot be read: Redis is unavailable as the api-gateway saw it, the
   * database as the api-gateway checks it now, the other services and the queues not known.
   */
  private async withoutRedis(reason: string, latencyMs: number, now: Date): Promise<ServiceHealthReport> {
    this.redisReadFailures += 1;
    const [database, current] = await Promise.all([this.checkDatabase(now), this.currentTier()]);
    const notChecked = (service: MonitoredService): ServiceCheck => ({
      label: MONITORED_SERVICE_LABELS[service],
      threshold: FAILURE_THRESHOLDS[service],
      available: false,
      lastCheck: null,
      consecutiveFailures: 0,
      lastError: null,
      latencyMs: null,
      detail: NOT_CHECKED_WITHOUT_REDIS,
      checkedBy: null,
    });
    const services: Record<string, ServiceCheck> = {};
    for (const service of MONITORED_SERVICES) services[service] = notChecked(service);
    services.database = database;
    services.redis = {
      label: MONITORED_SERVICE_LABELS.redis,
      threshold: FAILURE_THRESHOLDS.redis,
      available: false,
      lastCheck: now.toISOString(),
      consecutiveFailures: this.redisReadFailures,
      lastError: `The api-gateway could not read from Redis: ${reason}`,
      latencyMs,
      detail: "Checked by the api-gateway (the monitor's own count is kept in Redis)",
      checkedBy: 'api-gateway',
    };
    const queues = QUEUE_NAMES.map((queue) => unknownQueue(queue, QUEUE_UNKNOWN_WITHOUT_REDIS));
    return {
      overallHealth: 'degraded',
      timestamp: now.toISOString(),
      services,
      queues,
      fallback: { chain: FALLBACK_CHAIN, current },
      lastRoundAt: null,
      stale: false,
      monitorStateError: `${STATE_UNREADABLE} ${reason}`,
      smsSending: null,
    };
  }

  /** Postgres as the api-gateway sees it (SELECT 1). */
  private async checkDatabase(now: Date): Promise<ServiceCheck> {
    const startedAt = Date.now();
    let error: string | null = null;
    try {
      await withTimeout(pingDatabase(this.dataSource), DATABASE_CHECK_TIMEOUT_MS, 'Postgres');
      this.databaseFailures = 0;
    } catch (failure) {
      this.databaseFailures += 1;
      error = `The api-gateway could not query Postgres: ${messageOf(failure)}`;
    }
    return {
      label: MONITORED_SERVICE_LABELS.database,
      threshold: FAILURE_THRESHOLDS.database,
      available: error === null,
      lastCheck: now.toISOString(),
      consecutiveFailures: this.databaseFailures,
      lastError: error,
      latencyMs: Date.now() - startedAt,
      detail: 'postgres, checked by the api-gateway',
      checkedBy: 'api-gateway',
    };
  }

  /** The tier of the newest answered reply, from llm_calls (what the monitor records in Redis). */
  private async currentTier(): Promise<CurrentTier> {
    try {
      const row = await withTimeout(
        newestAnsweredReply(this.dataSource),
        DATABASE_CHECK_TIMEOUT_MS,
        'Postgres',
      );
      if (row === undefined) return { tier: null, at: null };
      const tier = (FALLBACK_TIERS as readonly string[]).includes(row.tier)
        ? (row.tier as FallbackTier)
        : null;
      return { tier, at: new Date(row.created_at).toISOString() };
    } catch {
      return { tier: null, at: null };
    }
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
      monitorStateError: null,
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
    let text: string | null;
    try {
      text = await this.readRedis(() => this.redis.get(key));
    } catch {
      throw new ServiceUnavailableException(STATE_UNREADABLE);
    }
    const value = parse(schema, text);
    if (value === null) throw new ServiceUnavailableException(PROACTIVE_STATE_MISSING);
    return value;
  }

  /**
   * Runs a read unless the connection is known to be down (then it would only wait in ioredis's
   * queue for a reconnect), giving up after STATE_READ_TIMEOUT_MS; throws a RedisReadError.
   */
  private async readRedis<T>(work: () => Promise<T>): Promise<T> {
    if (redisIsDown(this.redis)) {
      throw new RedisReadError(`the connection is down (${this.redis.status})`);
    }
    try {
      return await withTimeout(work(), STATE_READ_TIMEOUT_MS, 'Redis');
    } catch (error) {
      throw new RedisReadError(messageOf(error));
    }
  }
}
