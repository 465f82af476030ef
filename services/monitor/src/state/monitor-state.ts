/**
 * The monitor's live state in Redis: written by the monitor's jobs, read by anyone (the
 * api-gateway mirrors the read functions below). `{prefix}` is BULLMQ_PREFIX (default `sprout`),
 * so a test's Redis prefix isolates these keys too. All timestamps are ISO 8601 strings (UTC).
 *
 *   {prefix}:monitor:health:services   HASH, one field per checked service:
 *       field `database` | `redis` | `ai_provider` | `sms_provider`
 *       value JSON ServiceCheckState
 *         { available: boolean, lastCheck: string, consecutiveFailures: number,
 *           lastError: string | null, latencyMs: number | null, detail: string | null }
 *       (the spec's service card needs available, lastCheck and consecutiveFailures)
 *   {prefix}:monitor:health:failures   HASH, field = service, value = integer: the consecutive
 *       failure counter itself (HINCRBY on failure, 0 on success, so it is atomic)
 *   {prefix}:monitor:health:overall    STRING JSON { overallHealth: 'healthy' | 'degraded', timestamp }
 *       readServiceHealth() combines it with the services hash into contracts' ServiceHealth.
 *   {prefix}:monitor:trends            STRING JSON contracts' TrendsResponse
 *       { timestamp, trends: { responseTimeHistory: [{ timestamp, value }],   value = seconds
 *                              errorRateHistory:    [{ timestamp, value }] } } value = percent
 *       12 points, one per 5-minute bucket of the last hour, oldest first; timestamp = bucket start.
 *   {prefix}:monitor:predictions       STRING JSON contracts' PredictionsResponse
 *       { timestamp, predictions: [{ type, severity, confidence, timeframe, currentRate,
 *                                    percentageChange, recommendedActions[] }] }
 *   {prefix}:monitor:system            STRING JSON contracts' ProactiveSystemHealth
 *       { status: 'normal' | 'warning' | 'critical', timestamp, activePredictions,
 *         metrics: { resourceUtilization: { heapUsed, heapTotal, rss, external } (MB, monitor process),
 *                    averageResponseTime (ms, last hour), errorRate (percent, last hour), queueDepth } }
 *
 * Health keys never expire (failure counts must survive a monitor restart; lastCheck shows age).
 * Trends, predictions and system expire after PREDICTION_TTL_SECONDS, so a stopped monitor shows
 * as missing data rather than as stale numbers.
 */
import type {
  PredictionsResponse,
  ProactiveSystemHealth,
  ServiceHealth,
  ServiceStatus,
  TrendsResponse,
} from '@sprout/contracts';
import type { Redis } from 'ioredis';

export const MONITORED_SERVICES = ['database', 'redis', 'ai_provider', 'sms_provider'] as const;
export type MonitoredService = (typeof MONITORED_SERVICES)[number];

/**
 * Consecutive failed checks before a service counts as unavailable. Spec: AI provider 3,
 * database 5, SMS provider 3. Redis (not in the spec) is held to the database's 5.
 */
export const FAILURE_THRESHOLDS: Readonly<Record<MonitoredService, number>> = {
  database: 5,
  redis: 5,
  ai_provider: 3,
  sms_provider: 3,
};

export const PREDICTION_TTL_SECONDS = 10 * 60;

export interface ServiceCheckState extends ServiceStatus {
  lastCheck: string;
  lastError: string | null;
  latencyMs: number | null;
  /** What was checked, e.g. 'offline advisor' or 'sandbox SMS'. */
  detail: string | null;
}

export interface OverallHealth {
  overallHealth: ServiceHealth['overallHealth'];
  timestamp: string;
}

/** contracts' ServiceHealth, with the extra fields the monitor records per service. */
export interface MonitoredServiceHealth extends ServiceHealth {
  services: Record<string, ServiceCheckState>;
}

export const monitorKeys = (prefix: string) => ({
  services: `${prefix}:monitor:health:services`,
  failures: `${prefix}:monitor:health:failures`,
  overall: `${prefix}:monitor:health:overall`,
  trends: `${prefix}:monitor:trends`,
  predictions: `${prefix}:monitor:predictions`,
  system: `${prefix}:monitor:system`,
});

/**
 * The state after one check: a success resets the count and makes the service available; a
 * failure adds one, and only when the count reaches the threshold is the service unavailable.
 */
export const availabilityAfter = (ok: boolean, consecutiveFailures: number, threshold: number): boolean =>
  ok || consecutiveFailures < threshold;

export const overallHealthOf = (
  services: ReadonlyArray<Pick<ServiceStatus, 'available'>>,
): OverallHealth['overallHealth'] => (services.every((s) => s.available) ? 'healthy' : 'degraded');

const parseJson = <T>(text: string | null | undefined): T | null => {
  if (text === null || text === undefined) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
};

/** The spec's service health (null before the first check ever ran). */
export const readServiceHealth = async (
  redis: Redis,
  prefix: string,
): Promise<MonitoredServiceHealth | null> => {
  const keys = monitorKeys(prefix);
  const [fields, overallText] = await Promise.all([redis.hgetall(keys.services), redis.get(keys.overall)]);
  const overall = parseJson<OverallHealth>(overallText);
  if (overall === null) return null;
  const services: Record<string, ServiceCheckState> = {};
  for (const [name, value] of Object.entries(fields)) {
    const state = parseJson<ServiceCheckState>(value);
    if (state !== null) services[name] = state;
  }
  return { overallHealth: overall.overallHealth, timestamp: overall.timestamp, services };
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

/**
 * Records one round of checks: counts failures atomically, derives availability with the
 * thresholds, writes every service's state and the overall health. Returns the spec's shape.
 */
export const recordHealthChecks = async (
  redis: Redis,
  prefix: string,
  outcomes: readonly CheckOutcome[],
  now: Date = new Date(),
): Promise<MonitoredServiceHealth> => {
  const keys = monitorKeys(prefix);
  const counting = redis.multi();
  for (const outcome of outcomes) {
    if (outcome.ok) counting.hset(keys.failures, outcome.service, 0);
    else counting.hincrby(keys.failures, outcome.service, 1);
  }
  const counted = (await counting.exec()) ?? [];

  const states: Record<string, ServiceCheckState> = {};
  outcomes.forEach((outcome, index) => {
    const [error, value] = counted[index] ?? [new Error('no reply'), null];
    if (error) throw error;
    const consecutiveFailures = outcome.ok ? 0 : Number(value);
    states[outcome.service] = {
      available: availabilityAfter(outcome.ok, consecutiveFailures, FAILURE_THRESHOLDS[outcome.service]),
      lastCheck: outcome.checkedAt.toISOString(),
      consecutiveFailures,
      lastError: outcome.error,
      latencyMs: outcome.latencyMs,
      detail: outcome.detail,
    };
  });

  // Services not checked this round keep their last state and still count towards the overall health.
  const previous = await redis.hgetall(keys.services);
  const merged: Record<string, ServiceCheckState> = {};
  for (const [name, value] of Object.entries(previous)) {
    const state = parseJson<ServiceCheckState>(value);
    if (state !== null) merged[name] = state;
  }
  Object.assign(merged, states);
  const overall: OverallHealth = {
    overallHealth: overallHealthOf(Object.values(merged)),
    timestamp: now.toISOString(),
  };

  const writing = redis.multi();
  for (const [name, state] of Object.entries(states))
    writing.hset(keys.services, name, JSON.stringify(state));
  writing.set(keys.overall, JSON.stringify(overall));
  await writing.exec();
  return { ...overall, services: merged };
};

export const writeProactiveState = async (
  redis: Redis,
  prefix: string,
  state: { trends: TrendsResponse; predictions: PredictionsResponse; system: ProactiveSystemHealth },
): Promise<void> => {
  const keys = monitorKeys(prefix);
  await redis
    .multi()
    .set(keys.trends, JSON.stringify(state.trends), 'EX', PREDICTION_TTL_SECONDS)
    .set(keys.predictions, JSON.stringify(state.predictions), 'EX', PREDICTION_TTL_SECONDS)
    .set(keys.system, JSON.stringify(state.system), 'EX', PREDICTION_TTL_SECONDS)
    .exec();
};
