/**
 * The monitor's live state in Redis: written by the monitor's jobs, read by the api-gateway. The
 * key layout and the stored shapes are a contract between the two (libs/contracts, monitoring):
 * `monitorStateKeys(prefix)` with `{prefix}` = BULLMQ_PREFIX, so a test's Redis prefix isolates
 * them too. Health keys never expire (failure counts must survive a monitor restart; lastCheck
 * shows age). Trends, predictions and system status expire after PROACTIVE_STATE_TTL_SECONDS, so
 * a stopped monitor shows as missing data rather than as stale numbers.
 */
import {
  type CurrentTier,
  FAILURE_THRESHOLDS,
  MONITORED_SERVICES,
  type MonitoredService,
  PROACTIVE_STATE_TTL_SECONDS,
  type PredictionsResponse,
  type ProactiveSystemHealth,
  QUEUE_FAILURE_THRESHOLD,
  type QueueName,
  type ServiceHealth,
  StoredOverallHealth,
  StoredQueueCheck,
  StoredServiceCheck,
  type TrendsResponse,
  monitorStateKeys,
} from '@sprout/contracts';
import type { Redis } from 'ioredis';
import type { TrendSample } from '../predictions/prediction-rules';

export { FAILURE_THRESHOLDS, MONITORED_SERVICES, type MonitoredService };

export const monitorKeys = monitorStateKeys;

type ServiceCheckState = StoredServiceCheck;
type QueueCheckState = StoredQueueCheck;
type OverallHealth = StoredOverallHealth;

/** contracts' ServiceHealth, with the extra fields the monitor records per service and the queues. */
export interface MonitoredServiceHealth extends ServiceHealth {
  services: Record<string, ServiceCheckState>;
  queues: Record<string, QueueCheckState>;
}

/** Field of a queue's counter in the failures hash. */
const queueCounter = (queue: string): string => `queue:${queue}`;

/**
 * The state after one check: a success resets the count and makes the service available; a
 * failure adds one, and only when the count reaches the threshold is the service unavailable.
 */
const availabilityAfter = (ok: boolean, consecutiveFailures: number, threshold: number): boolean =>
  ok || consecutiveFailures < threshold;

/** Healthy when every service and every queue is available. */
const overallHealthOf = (checks: ReadonlyArray<{ available: boolean }>): OverallHealth['overallHealth'] =>
  checks.every((s) => s.available) ? 'healthy' : 'degraded';

/** A zod schema as these readers use it (the monitor has no direct zod dependency). */
interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

const parseStored = <T>(schema: Schema<T>, text: string | null | undefined): T | null => {
  if (text === null || text === undefined) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

const parseJson = <T>(text: string | null | undefined): T | null => {
  if (text === null || text === undefined) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
};

const parseHash = <T>(schema: Schema<T>, fields: Record<string, string>) => {
  const out: Record<string, T> = {};
  for (const [name, value] of Object.entries(fields)) {
    const state = parseStored(schema, value);
    if (state !== null) out[name] = state;
  }
  return out;
};

/** The last recorded health (null before the first check ever ran). */
export const readServiceHealth = async (
  redis: Redis,
  prefix: string,
): Promise<MonitoredServiceHealth | null> => {
  const keys = monitorKeys(prefix);
  const [services, queues, overallText] = await Promise.all([
    redis.hgetall(keys.services),
    redis.hgetall(keys.queues),
    redis.get(keys.overall),
  ]);
  const overall = parseStored(StoredOverallHealth, overallText);
  if (overall === null) return null;
  return {
    overallHealth: overall.overallHealth,
    timestamp: overall.timestamp,
    services: parseHash(StoredServiceCheck, services),
    queues: parseHash(StoredQueueCheck, queues),
  };
};

export const readTrends = async (redis: Redis, prefix: string): Promise<TrendsResponse | null> =>
  parseJson<TrendsResponse>(await redis.get(monitorKeys(prefix).trends));

export const readPredictions = async (redis: Redis, prefix: string): Promise<PredictionsResponse | null> =>
  parseJson<PredictionsResponse>(await redis.get(monitorKeys(prefix).predictions));

export const readSystemHealth = async (redis: Redis, prefix: string): Promise<ProactiveSystemHealth | null> =>
  parseJson<ProactiveSystemHealth>(await redis.get(monitorKeys(prefix).system));

export interface CheckOutcome {
  service: MonitoredService;
  ok: boolean;
  checkedAt: Date;
  latencyMs: number | null;
  error: string | null;
  detail: string | null;
}

/** What one look at a queue found; `problem` is null when it is moving. */
export interface QueueOutcome {
  queue: QueueName;
  checkedAt: Date;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  workers: number;
  oldestWaitingSeconds: number | null;
  problem: string | null;
}

export interface HealthRound {
  services: readonly CheckOutcome[];
  queues: readonly QueueOutcome[];
  /** The reply pipeline's tier now; null when it could not be read (the database is down). */
  tier: CurrentTier | null;
}

const serviceState = (outcome: CheckOutcome, failures: number): ServiceCheckState => ({
  available: availabilityAfter(outcome.ok, failures, FAILURE_THRESHOLDS[outcome.service]),
  lastCheck: outcome.checkedAt.toISOString(),
  consecutiveFailures: failures,
  lastError: outcome.error,
  latencyMs: outcome.latencyMs,
  detail: outcome.detail,
});

const queueState = (outcome: QueueOutcome, failures: number): QueueCheckState => ({
  available: availabilityAfter(outcome.problem === null, failures, QUEUE_FAILURE_THRESHOLD),
  lastCheck: outcome.checkedAt.toISOString(),
  consecutiveFailures: failures,
  waiting: outcome.waiting,
  active: outcome.active,
  delayed: outcome.delayed,
  failed: outcome.failed,
  workers: outcome.workers,
  oldestWaitingSeconds: outcome.oldestWaitingSeconds,
  problem: outcome.problem,
});

/**
 * The state of a round given each check's consecutive failure count (from Redis, or from the
 * monitor's memory while Redis is down), merged over the previous state: services and queues not
 * checked this round keep their last state and still count towards the overall health.
 */
export const healthAfterRound = (
  round: HealthRound,
  failures: ReadonlyMap<string, number>,
  previous: Pick<MonitoredServiceHealth, 'services' | 'queues'> | null,
  now: Date,
): MonitoredServiceHealth => {
  const services: Record<string, ServiceCheckState> = { ...previous?.services };
  for (const outcome of round.services) {
    services[outcome.service] = serviceState(outcome, outcome.ok ? 0 : (failures.get(outcome.service) ?? 1));
  }
  const queues: Record<string, QueueCheckState> = { ...previous?.queues };
  for (const outcome of round.queues) {
    const key = queueCounter(outcome.queue);
    queues[outcome.queue] = queueState(outcome, outcome.problem === null ? 0 : (failures.get(key) ?? 1));
  }
  return {
    overallHealth: overallHealthOf([...Object.values(services), ...Object.values(queues)]),
    timestamp: now.toISOString(),
    services,
    queues,
  };
};

/** The consecutive failure counter of every check, by field of the failures hash. */
export const failureCounters = (health: Pick<MonitoredServiceHealth, 'services' | 'queues'>) =>
  new Map<string, number>([
    ...Object.entries(health.services).map(([name, s]) => [name, s.consecutiveFailures] as const),
    ...Object.entries(health.queues).map(([name, q]) => [queueCounter(name), q.consecutiveFailures] as const),
  ]);

/**
 * Records one round of checks: counts failures atomically (HINCRBY, reset to 0 on success, so
 * two rounds at once cannot lose a count), derives availability with the thresholds, and writes
 * every service's and queue's state, the overall health and the pipeline's tier. `carried`: the
 * counts the monitor kept in memory while Redis was down; a failing check goes on from its count
 * there instead of from Redis's older one.
 */
export const recordHealthChecks = async (
  redis: Redis,
  prefix: string,
  round: HealthRound,
  now: Date = new Date(),
  carried?: ReadonlyMap<string, number>,
): Promise<MonitoredServiceHealth> => {
  const keys = monitorKeys(prefix);
  const counters = [
    ...round.services.map((o) => ({ field: `${o.service}`, ok: o.ok })),
    ...round.queues.map((o) => ({ field: queueCounter(o.queue), ok: o.problem === null })),
  ].map((counter) => ({ ...counter, before: carried?.get(counter.field) }));
  const counting = redis.multi();
  for (const { field, ok, before } of counters) {
    if (ok) counting.hset(keys.failures, field, 0);
    else if (before !== undefined) counting.hset(keys.failures, field, before + 1);
    else counting.hincrby(keys.failures, field, 1);
  }
  const counted = (await counting.exec()) ?? [];
  const failures = new Map<string, number>();
  counters.forEach(({ field, ok, before }, index) => {
    const [error, value] = counted[index] ?? [new Error('no reply'), null];
    if (error) throw error;
    failures.set(field, ok ? 0 : before !== undefined ? before + 1 : Number(value));
  });

  const [servicesText, queuesText] = await Promise.all([
    redis.hgetall(keys.services),
    redis.hgetall(keys.queues),
  ]);
  const health = healthAfterRound(
    round,
    failures,
    {
      services: parseHash(StoredServiceCheck, servicesText),
      queues: parseHash(StoredQueueCheck, queuesText),
    },
    now,
  );

  const writing = redis.multi();
  for (const outcome of round.services)
    writing.hset(keys.services, outcome.service, JSON.stringify(health.services[outcome.service]));
  for (const outcome of round.queues)
    writing.hset(keys.queues, outcome.queue, JSON.stringify(health.queues[outcome.queue]));
  writing.set(
    keys.overall,
    JSON.stringify({ overallHealth: health.overallHealth, timestamp: health.timestamp }),
  );
  if (round.tier !== null) writing.set(keys.tier, JSON.stringify(round.tier));
  await writing.exec();
  return health;
};

export const writeProactiveState = async (
  redis: Redis,
  prefix: string,
  state: { trends: TrendsResponse; predictions: PredictionsResponse; system: ProactiveSystemHealth },
): Promise<void> => {
  const keys = monitorKeys(prefix);
  await redis
    .multi()
    .set(keys.trends, JSON.stringify(state.trends), 'EX', PROACTIVE_STATE_TTL_SECONDS)
    .set(keys.predictions, JSON.stringify(state.predictions), 'EX', PROACTIVE_STATE_TTL_SECONDS)
    .set(keys.system, JSON.stringify(state.system), 'EX', PROACTIVE_STATE_TTL_SECONDS)
    .exec();
};

/** One minute's look at what the monitor follows over time (queue depth, its own heap). */
export type MonitorSample = TrendSample;

/** Samples kept: one per prediction run (every minute), an hour and a bit. */
const SAMPLES_KEPT = 70;

/** Adds a sample and answers the kept ones, oldest first. */
export const addSample = async (
  redis: Redis,
  prefix: string,
  sample: MonitorSample,
): Promise<MonitorSample[]> => {
  const key = monitorKeys(prefix).samples;
  const replies = await redis
    .multi()
    .lpush(key, JSON.stringify(sample))
    .ltrim(key, 0, SAMPLES_KEPT - 1)
    .lrange(key, 0, SAMPLES_KEPT - 1)
    .exec();
  const [error, list] = replies?.[2] ?? [new Error('no reply'), null];
  if (error) throw error;
  return (list as string[])
    .map((text) => parseJson<MonitorSample>(text))
    .filter((s): s is MonitorSample => s !== null)
    .reverse();
};
