import { Inject, Injectable } from '@nestjs/common';
import {
  type CurrentTier,
  FALLBACK_TIERS,
  type FallbackTier,
  QUEUE_NAMES,
  QUEUE_STALLED_AFTER_SECONDS,
  type QueueName,
} from '@sprout/contracts';
import { newestReplyTier, pingDatabase } from '@sprout/domain';
import { CONFIG, JobQueues, LOGGER, Metrics } from '@sprout/platform';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { type MonitorConfig } from '../config';
import { ProviderClients } from '../providers/provider-clients';
import {
  type CheckOutcome,
  type HealthRound,
  MONITORED_SERVICES,
  type MonitoredService,
  type MonitoredServiceHealth,
  type QueueOutcome,
  failureCounters,
  healthAfterRound,
  recordHealthChecks,
} from '../state/monitor-state';
import { monitorMetrics } from '../metrics';

/** ioredis states in which a command would only wait in its offline queue for a reconnect. */
const REDIS_DOWN_STATES = new Set(['reconnecting', 'close', 'end']);

class CheckTimeoutError extends Error {}

const withTimeout = async <T>(work: Promise<T>, timeoutMs: number, label: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new CheckTimeoutError(`${label} did not answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * Why a queue is not moving, or null: jobs wait and no worker is connected, or the oldest waiting
 * job has waited longer than QUEUE_STALLED_AFTER_SECONDS.
 */
export const queueProblem = (look: {
  waiting: number;
  workers: number;
  oldestWaitingSeconds: number | null;
}): string | null => {
  if (look.waiting > 0 && look.workers === 0) return `${plural(look.waiting, 'job')} waiting and no worker`;
  if (look.oldestWaitingSeconds !== null && look.oldestWaitingSeconds > QUEUE_STALLED_AFTER_SECONDS) {
    return `The oldest waiting job has waited ${plural(Math.floor(look.oldestWaitingSeconds / 60), 'minute')}`;
  }
  return null;
};

/**
 * When a job started waiting: when it was added, or when its planned delay or its last attempt
 * ended (a retried job waits again from then). Milliseconds.
 */
export const waitingSince = (job: { timestamp: number; delay?: number; processedOn?: number }): number =>
  Math.max(job.timestamp + (job.delay ?? 0), job.processedOn ?? 0);

@Injectable()
export class ServiceHealthService {
  private readonly metrics;
  /** The last state known, counted on in memory while Redis cannot record a round. */
  private lastKnown: MonitoredServiceHealth | null = null;
  /** The last round was counted in memory: the next one recorded in Redis goes on from its counts. */
  private countedInMemory = false;
  private lastRoundAt = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis,
    private readonly queues: JobQueues,
    private readonly providers: ProviderClients,
    @Inject(CONFIG) private readonly config: MonitorConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: Metrics,
  ) {
    this.metrics = monitorMetrics(metrics);
  }

  /** Epoch ms of the last completed round (0 before the first). */
  get lastRound(): number {
    return this.lastRoundAt;
  }

  /**
   * Checks every dependency and queue and the pipeline's tier, records the outcome in Redis and
   * answers the state. While Redis cannot record it (Redis itself is down), failures are counted
   * on in memory from the last known state, so the metrics and logs still say what is down.
   */
  async checkAll(now: () => Date = () => new Date()): Promise<MonitoredServiceHealth> {
    // The probes first, alone: their latency is part of what they report.
    const services = await Promise.all(MONITORED_SERVICES.map((service) => this.check(service)));
    const [queues, tier] = await Promise.all([this.checkQueues(), this.currentTier()]);
    const round: HealthRound = { services, queues, tier };
    let health: MonitoredServiceHealth;
    try {
      if (this.redisIsDown()) throw new Error(`the Redis connection is down (${this.redis.status})`);
      // After an outage Redis's counts are older than the ones in memory: those carry on.
      const carried =
        this.countedInMemory && this.lastKnown !== null ? failureCounters(this.lastKnown) : undefined;
      health = await withTimeout(
        recordHealthChecks(this.redis, this.config.bullmqPrefix, round, now(), carried),
        this.config.checkTimeoutMs,
        'recording the health state in Redis',
      );
      this.countedInMemory = false;
    } catch (error) {
      health = this.countInMemory(round, now());
      this.countedInMemory = true;
      this.logger.warn(
        { error: error instanceof Error ? error.message : String(error) },
        'health state not recorded in Redis; counting failures in memory',
      );
    }
    this.lastKnown = health;
    this.lastRoundAt = Date.now();
    this.export(health);
    return health;
  }

  async check(service: MonitoredService): Promise<CheckOutcome> {
    const startedAt = Date.now();
    try {
      const detail = await withTimeout(this.probe(service), this.config.checkTimeoutMs, service);
      return {
        service,
        ok: true,
        checkedAt: new Date(),
        latencyMs: Date.now() - startedAt,
        error: null,
        detail,
      };
    } catch (error) {
      return {
        service,
        ok: false,
        checkedAt: new Date(),
        latencyMs: Date.now() - startedAt,
        error: error instanceof Error ? error.message : String(error),
        detail: null,
      };
    }
  }

  /** Every queue's counts, workers and oldest waiting job; none when Redis does not answer. */
  async checkQueues(now: () => number = Date.now): Promise<QueueOutcome[]> {
    if (this.redisIsDown()) return [];
    try {
      return await withTimeout(
        Promise.all(QUEUE_NAMES.map((queue) => this.checkQueue(queue, now))),
        this.config.checkTimeoutMs,
        'queues',
      );
    } catch {
      // Redis is down: its own check says so; the queues keep their last state.
      return [];
    }
  }

  private async checkQueue(name: QueueName, now: () => number): Promise<QueueOutcome> {
    const queue = this.queues.queue(name);
    const [counts, workers, oldest] = await Promise.all([
      queue.getJobCounts('waiting', 'active', 'delayed', 'failed'),
      queue.getWorkersCount(),
      // The wait list is a FIFO: ascending order starts with the oldest job.
      queue.getJobs(['wait'], 0, 0, true),
    ]);
    const first = oldest[0];
    const oldestWaitingSeconds =
      first === undefined ? null : Math.max(0, Math.round((now() - waitingSince(first)) / 1000));
    const look = {
      waiting: counts.waiting ?? 0,
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed: counts.failed ?? 0,
      workers,
      oldestWaitingSeconds,
    };
    return { queue: name, checkedAt: new Date(now()), ...look, problem: queueProblem(look) };
  }

  /** The tier that answered the newest reply (llm_calls); null when the database cannot say. */
  async currentTier(): Promise<CurrentTier | null> {
    try {
      const row = await withTimeout(
        newestReplyTier(this.dataSource),
        this.config.checkTimeoutMs,
        'current tier',
      );
      if (row === null) return { tier: null, at: null };
      const tier = (FALLBACK_TIERS as readonly string[]).includes(row.tier)
        ? (row.tier as FallbackTier)
        : null;
      return { tier, at: row.createdAt.toISOString() };
    } catch {
      return null;
    }
  }

  private countInMemory(round: HealthRound, now: Date): MonitoredServiceHealth {
    const counters = this.lastKnown === null ? new Map<string, number>() : failureCounters(this.lastKnown);
    const failures = new Map<string, number>();
    for (const outcome of round.services) {
      failures.set(outcome.service, outcome.ok ? 0 : (counters.get(outcome.service) ?? 0) + 1);
    }
    for (const outcome of round.queues) {
      const key = `queue:${outcome.queue}`;
      failures.set(key, outcome.problem === null ? 0 : (counters.get(key) ?? 0) + 1);
    }
    return healthAfterRound(round, failures, this.lastKnown, now);
  }

  private export(health: MonitoredServiceHealth): void {
    for (const [service, state] of Object.entries(health.services)) {
      this.metrics.serviceAvailable.set({ target: service }, state.available ? 1 : 0);
      this.metrics.serviceFailures.set({ target: service }, state.consecutiveFailures);
    }
    for (const [queue, state] of Object.entries(health.queues)) {
      for (const jobState of ['waiting', 'active', 'delayed', 'failed'] as const) {
        this.metrics.queueJobs.set({ queue, state: jobState }, state[jobState]);
      }
      this.metrics.queueWorkers.set({ queue }, state.workers);
      this.metrics.queueOldestWaiting.set({ queue }, state.oldestWaitingSeconds ?? 0);
      this.metrics.queueAvailable.set({ queue }, state.available ? 1 : 0);
    }
  }

  /** Resolves with a short description of what answered; rejects when the dependency failed. */
  private async probe(service: MonitoredService): Promise<string> {
    switch (service) {
      case 'database':
        await pingDatabase(this.dataSource);
        return 'postgres';
      case 'redis':
        // While ioredis reconnects a PING would only wait in its queue.
        if (this.redisIsDown()) throw new Error(`Redis connection is down (${this.redis.status})`);
        await this.redis.ping();
        return 'redis';
      case 'ai_provider': {
        // Without a key every answer comes from the offline advisor, which is always there.
        if (this.providers.openAi === null) return 'offline advisor (no OpenAI key)';
        const models = await this.providers.openAi.listModels();
        return `openai (${models.length} models)`;
      }
      case 'sms_provider': {
        // The account fetch proves the API and the credentials without sending anything.
        const account = await this.providers.sms.fetchAccount();
        if (account.status !== 'active')
          throw new Error(`Twilio account ${account.sid} is ${account.status}`);
        return `twilio account ${account.friendlyName} (${account.status}) at ${this.providers.smsApiOrigin}`;
      }
    }
  }

  private redisIsDown(): boolean {
    return REDIS_DOWN_STATES.has(this.redis.status);
  }
}
