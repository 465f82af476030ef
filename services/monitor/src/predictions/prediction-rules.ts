import type { Prediction, PredictionLevel, ProactiveSystemHealth, Trends } from '@sprout/contracts';

// Proactive monitoring rules, free of I/O. The last hour is cut into 12 buckets of 5 minutes; the
// newest 3 buckets (15 minutes) are "recent", the 9 before them the "baseline". Each rule compares
// recent with baseline (or with a fixed limit) and says what to do about it.

export const BUCKET_MS = 5 * 60 * 1000;
export const BUCKET_COUNT = 12;
const RECENT_BUCKETS = 3;

/** Activity of one 5-minute bucket. */
export interface BucketSample {
  /** Sum and count of outbound reply response times (inbound received -> reply queued). */
  responseTimeMsTotal: number;
  timedResponses: number;
  /** Model calls plus outbound messages; errors are failed model calls plus failed or undelivered messages. */
  operations: number;
  errors: number;
}

export const emptyBucket = (): BucketSample => ({
  responseTimeMsTotal: 0,
  timedResponses: 0,
  operations: 0,
  errors: 0,
});

/** Start of the oldest bucket: buckets are aligned to 5-minute wall-clock boundaries, the newest holds `now`. */
export const windowStartOf = (now: Date): Date =>
  new Date(Math.floor(now.getTime() / BUCKET_MS) * BUCKET_MS - (BUCKET_COUNT - 1) * BUCKET_MS);

export interface WindowStats {
  /** Seconds; null without samples. */
  averageResponseSeconds: number | null;
  timedResponses: number;
  /** Percent; null without operations. */
  errorRate: number | null;
  operations: number;
}

export const statsOf = (buckets: readonly BucketSample[]): WindowStats => {
  const total = buckets.reduce(
    (sum, b) => ({
      responseTimeMsTotal: sum.responseTimeMsTotal + b.responseTimeMsTotal,
      timedResponses: sum.timedResponses + b.timedResponses,
      operations: sum.operations + b.operations,
      errors: sum.errors + b.errors,
    }),
    emptyBucket(),
  );
  return {
    averageResponseSeconds:
      total.timedResponses === 0 ? null : total.responseTimeMsTotal / total.timedResponses / 1000,
    timedResponses: total.timedResponses,
    errorRate: total.operations === 0 ? null : (total.errors / total.operations) * 100,
    operations: total.operations,
  };
};

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

/** One point per bucket, oldest first: response time in seconds, error rate in percent (0 when idle). */
export const trendsOf = (buckets: readonly BucketSample[], windowStart: Date): Trends => {
  const at = (index: number): string => new Date(windowStart.getTime() + index * BUCKET_MS).toISOString();
  return {
    responseTimeHistory: buckets.map((bucket, index) => ({
      timestamp: at(index),
      value: round(statsOf([bucket]).averageResponseSeconds ?? 0, 2),
    })),
    errorRateHistory: buckets.map((bucket, index) => ({
      timestamp: at(index),
      value: round(statsOf([bucket]).errorRate ?? 0, 1),
    })),
  };
};

export interface SpendSnapshot {
  /** Dollars spent on model calls since midnight UTC. */
  spentToday: number;
  spentLastHour: number;
  callsLastHour: number;
  /** The daily spending limit in dollars. */
  limit: number;
  now: Date;
}

export interface MemorySnapshot {
  heapUsedBytes: number;
  /** V8's heap size limit. */
  heapLimitBytes: number;
}

/** One minute's look at queue depths and the monitor's heap (kept in Redis, see monitor-state). */
export interface TrendSample {
  at: string;
  /** Jobs waiting per queue. */
  waiting: Record<string, number>;
  heapUsedBytes: number;
}

export interface PredictionInput {
  buckets: readonly BucketSample[];
  spend: SpendSnapshot;
  memory: MemorySnapshot;
  /** The last hour's samples, oldest first (the newest is now). */
  samples?: readonly TrendSample[];
}

// Thresholds of the rules.
const ERROR_RATE_MIN_OPERATIONS = 5;
const ERROR_RATE_MIN_PERCENT = 5;
const ERROR_RATE_HIGH_PERCENT = 25;
const SLOW_RESPONSE_SECONDS = 5;
const SLOW_RESPONSE_HIGH_SECONDS = 15;
const SLOW_RESPONSE_MIN_SAMPLES = 3;
/** Recent must be at least this times the baseline to count as rising. */
const RISE_FACTOR = 1.5;
const SPEND_WARNING_SHARE = 0.8;
const MEMORY_WARNING_SHARE = 0.85;
/** A backlog compares the waiting jobs now with this long ago. */
const BACKLOG_LOOKBACK_MS = 15 * 60 * 1000;
const BACKLOG_MIN_JOBS = 20;
const BACKLOG_MIN_GROWTH = 10;
const BACKLOG_MEDIUM_JOBS = 100;
const BACKLOG_HIGH_JOBS = 500;
/** Memory growth needs this many minutes of samples, and this much growth between the ends. */
const MEMORY_GROWTH_MIN_SAMPLES = 30;
const MEMORY_GROWTH_MIN_PERCENT = 25;
const MEMORY_GROWTH_MIN_BYTES = 32 * 1024 * 1024;
/** Samples averaged at each end of the window (smooths garbage collection). */
const MEMORY_END_SAMPLES = 10;

const confidenceBySamples = (samples: number, high: number, medium: number): PredictionLevel =>
  samples >= high ? 'high' : samples >= medium ? 'medium' : 'low';

/** Change of recent against baseline in percent; 100 when there was nothing before. */
const changeAgainst = (recent: number, baseline: number | null): number =>
  baseline === null || baseline === 0 ? 100 : round(((recent - baseline) / baseline) * 100, 1);

const hoursText = (hours: number): string => {
  const whole = Math.max(1, Math.ceil(hours));
  return `next ${whole} ${whole === 1 ? 'hour' : 'hours'}`;
};

/** Rising: at least RISE_FACTOR times the baseline, or no baseline to compare with. */
const isRising = (recent: number, baseline: number | null): boolean =>
  baseline === null || baseline === 0 || recent >= baseline * RISE_FACTOR;

/**
 * Errors rising: the recent error rate is at least 5 %, over at least 5 operations, and rising
 * (1.5 times the baseline, or no baseline); a rate of 25 % or more counts even when steady.
 * Severity: 25 % high, 10 % medium, else low. currentRate is the recent error rate in percent;
 * percentageChange its change against the baseline.
 */
const errorRatePrediction = (recent: WindowStats, baseline: WindowStats): Prediction | null => {
  const rate = recent.errorRate;
  if (rate === null || recent.operations < ERROR_RATE_MIN_OPERATIONS || rate < ERROR_RATE_MIN_PERCENT)
    return null;
  if (!isRising(rate, baseline.errorRate) && rate < ERROR_RATE_HIGH_PERCENT) return null;
  return {
    type: 'error_rate_increase',
    severity: rate >= ERROR_RATE_HIGH_PERCENT ? 'high' : rate >= 10 ? 'medium' : 'low',
    confidence: confidenceBySamples(recent.operations, 50, 20),
    timeframe: 'next 15 minutes',
    currentRate: round(rate, 1),
    percentageChange: changeAgainst(rate, baseline.errorRate),
    recommendedActions: [
      'Open Service Health and check the AI provider and SMS provider',
      'Review failed messages (failed or undelivered) and their error codes',
      'Expect replies to move down the fallback chain to template answers while the AI provider fails',
    ],
  };
};

/**
 * Responses slowing: the recent average response time is at least 5 s, over at least 3 replies,
 * and rising (1.5 times the baseline, or no baseline); 15 s or more counts even when steady.
 * Severity: 15 s high, 10 s medium, else low. currentRate is the recent average in seconds.
 */
const responseTimePrediction = (recent: WindowStats, baseline: WindowStats): Prediction | null => {
  const seconds = recent.averageResponseSeconds;
  if (
    seconds === null ||
    recent.timedResponses < SLOW_RESPONSE_MIN_SAMPLES ||
    seconds < SLOW_RESPONSE_SECONDS
  )
    return null;
  const before = baseline.averageResponseSeconds;
  if (!isRising(seconds, before) && seconds < SLOW_RESPONSE_HIGH_SECONDS) return null;
  return {
    type: 'response_time_degradation',
    severity: seconds >= SLOW_RESPONSE_HIGH_SECONDS ? 'high' : seconds >= 10 ? 'medium' : 'low',
    confidence: confidenceBySamples(recent.timedResponses, 30, 10),
    timeframe: 'next 30 minutes',
    currentRate: round(seconds, 2),
    percentageChange: changeAgainst(seconds, before),
    recommendedActions: [
      'Check the AI provider latency on Service Health',
      'Consider a faster live model in Model Management',
      'Check the depth of the sms.inbound queue and scale ai-responder workers',
    ],
  };
};

/**
 * Spend approaching the daily limit. Today's spend is projected to midnight UTC at the last
 * hour's rate. At or over the limit: high. At 80 % or more: high when the projection reaches the
 * limit, else medium. Below 80 % but projected to reach it: medium within 3 hours, else low.
 * currentRate is today's spend in dollars; percentageChange the share of the limit used, percent.
 */
export const spendPrediction = (spend: SpendSnapshot): Prediction | null => {
  if (spend.limit <= 0) return null;
  const endOfDay = Date.UTC(spend.now.getUTCFullYear(), spend.now.getUTCMonth(), spend.now.getUTCDate() + 1);
  const hoursLeft = Math.max(0, (endOfDay - spend.now.getTime()) / 3_600_000);
  const projected = spend.spentToday + spend.spentLastHour * hoursLeft;
  const share = spend.spentToday / spend.limit;
  const hoursToLimit =
    spend.spentLastHour > 0 ? (spend.limit - spend.spentToday) / spend.spentLastHour : Infinity;
  const actions = [
    "Review today's spend per model in Model Management",
    'Switch the live model to a cheaper one, or raise the daily spending limit',
    'At the limit, replies use the offline template answers until midnight UTC',
  ];
  const base = {
    type: 'spending_limit',
    currentRate: round(spend.spentToday, 4),
    percentageChange: round(share * 100, 1),
  };
  if (share >= 1) {
    return { ...base, severity: 'high', confidence: 'high', timeframe: 'now', recommendedActions: actions };
  }
  if (share >= SPEND_WARNING_SHARE) {
    return {
      ...base,
      severity: projected >= spend.limit ? 'high' : 'medium',
      confidence: 'high',
      timeframe: Number.isFinite(hoursToLimit) ? hoursText(hoursToLimit) : 'today',
      recommendedActions: actions,
    };
  }
  if (projected >= spend.limit && Number.isFinite(hoursToLimit)) {
    return {
      ...base,
      severity: hoursToLimit <= 3 ? 'medium' : 'low',
      confidence: confidenceBySamples(spend.callsLastHour, 100, 20),
      timeframe: hoursText(hoursToLimit),
      recommendedActions: actions,
    };
  }
  return null;
};

/**
 * The monitor's own heap nearing V8's limit (85 %: medium, 95 %: high). currentRate is the heap
 * used in MB; percentageChange the share of the limit, percent.
 */
export const memoryPrediction = (memory: MemorySnapshot): Prediction | null => {
  if (memory.heapLimitBytes <= 0) return null;
  const share = memory.heapUsedBytes / memory.heapLimitBytes;
  if (share < MEMORY_WARNING_SHARE) return null;
  return {
    type: 'memory_pressure',
    severity: share >= 0.95 ? 'high' : 'medium',
    confidence: 'high',
    timeframe: 'next 1 hour',
    currentRate: round(memory.heapUsedBytes / 1024 / 1024, 2),
    percentageChange: round(share * 100, 1),
    recommendedActions: [
      'Restart the monitor process',
      'Raise the memory limit (--max-old-space-size) of the container',
    ],
  };
};

/** Which service's workers consume a queue (what to scale when it backs up). */
const QUEUE_CONSUMERS: Readonly<Record<string, string>> = {
  'sms.inbound': 'ai-responder',
  'conversation.summarize': 'ai-responder',
  'sms.outbound': 'sms-gateway',
  'sms.status': 'sms-gateway',
  'delivery.check': 'sms-gateway',
  'sms.inbound-sweep': 'sms-gateway',
  'image.analyze': 'image-processor',
  'survey.lifecycle': 'survey-scheduler',
  'monitor.health': 'monitor',
  'monitor.predict': 'monitor',
};

/**
 * A queue backing up: at least 20 jobs waiting now, 10 or more and at least 1.5 times as many as
 * 15 minutes ago (the sample nearest that time). One prediction per queue. Severity: 500 jobs
 * high, 100 medium, else low. currentRate is the jobs waiting now; percentageChange the growth.
 */
export const queueBacklogPredictions = (samples: readonly TrendSample[]): Prediction[] => {
  const newest = samples.at(-1);
  if (newest === undefined) return [];
  const target = Date.parse(newest.at) - BACKLOG_LOOKBACK_MS;
  const earlier = samples
    .slice(0, -1)
    .filter((s) => Date.parse(s.at) <= target)
    .at(-1);
  if (earlier === undefined) return [];
  const minutes = Math.max(1, Math.round((Date.parse(newest.at) - Date.parse(earlier.at)) / 60_000));
  const predictions: Prediction[] = [];
  for (const [queue, waiting] of Object.entries(newest.waiting)) {
    const before = earlier.waiting[queue] ?? 0;
    if (waiting < BACKLOG_MIN_JOBS || waiting - before < BACKLOG_MIN_GROWTH || !isRising(waiting, before))
      continue;
    const perMinute = (waiting - before) / minutes;
    const severity: PredictionLevel =
      waiting >= BACKLOG_HIGH_JOBS ? 'high' : waiting >= BACKLOG_MEDIUM_JOBS ? 'medium' : 'low';
    // Rising in every sample since the earlier one is a steadier signal than two points.
    const between = samples
      .filter((s) => Date.parse(s.at) >= Date.parse(earlier.at))
      .map((s) => s.waiting[queue] ?? 0);
    const steady = between.every((value, i) => i === 0 || value >= (between[i - 1] ?? 0));
    const consumer = QUEUE_CONSUMERS[queue] ?? 'its worker';
    predictions.push({
      type: 'queue_backlog',
      severity,
      confidence: steady && between.length >= 10 ? 'high' : steady ? 'medium' : 'low',
      timeframe: severity === 'low' ? 'next 1 hour' : 'next 30 minutes',
      currentRate: waiting,
      percentageChange: changeAgainst(waiting, before),
      recommendedActions: [
        `${queue}: ${waiting} jobs waiting, ${round(perMinute, 1)} more every minute for ${minutes} minutes`,
        `Scale the ${consumer} workers that consume ${queue}, or check they are running`,
        'Check Service Health for a failing dependency that slows the workers',
      ],
    });
  }
  return predictions;
};

/**
 * The monitor's heap growing over the last half hour or more: the average of the newest 10
 * samples is at least 25 % and 32 MB above the oldest 10's. Projected at that pace to V8's heap
 * limit: within 2 hours high, within 12 medium, else low. currentRate is the growth in MB per
 * hour; percentageChange the growth over the window.
 */
export const memoryGrowthPrediction = (
  samples: readonly TrendSample[],
  memory: MemorySnapshot,
): Prediction | null => {
  if (samples.length < MEMORY_GROWTH_MIN_SAMPLES || memory.heapLimitBytes <= 0) return null;
  const average = (part: readonly TrendSample[]): number =>
    part.reduce((sum, s) => sum + s.heapUsedBytes, 0) / part.length;
  const first = samples.slice(0, MEMORY_END_SAMPLES);
  const last = samples.slice(-MEMORY_END_SAMPLES);
  const before = average(first);
  const now = average(last);
  const growth = now - before;
  if (before <= 0 || growth < MEMORY_GROWTH_MIN_BYTES || (growth / before) * 100 < MEMORY_GROWTH_MIN_PERCENT)
    return null;
  const middle = (part: readonly TrendSample[]): number =>
    (Date.parse(part[0]?.at ?? '') + Date.parse(part.at(-1)?.at ?? '')) / 2;
  const hours = Math.max((middle(last) - middle(first)) / 3_600_000, 1 / 60);
  const perHour = growth / hours;
  const hoursToLimit = Math.max(0, memory.heapLimitBytes - memory.heapUsedBytes) / perHour;
  return {
    type: 'memory_growth',
    severity: hoursToLimit <= 2 ? 'high' : hoursToLimit <= 12 ? 'medium' : 'low',
    confidence: samples.length >= 50 ? 'high' : 'medium',
    timeframe: hoursToLimit <= 12 ? hoursText(hoursToLimit) : 'next 12 hours',
    currentRate: round(perHour / 1024 / 1024, 1),
    percentageChange: round((growth / before) * 100, 1),
    recommendedActions: [
      'Watch the heap on Proactive Monitoring; restart the monitor if it keeps growing',
      'Raise the memory limit (--max-old-space-size) of the container meanwhile',
    ],
  };
};

/** Every rule over the last hour, most severe first. */
export const predict = (input: PredictionInput): Prediction[] => {
  const recent = statsOf(input.buckets.slice(-RECENT_BUCKETS));
  const baseline = statsOf(input.buckets.slice(0, -RECENT_BUCKETS));
  const order: Record<PredictionLevel, number> = { high: 0, medium: 1, low: 2 };
  return [
    errorRatePrediction(recent, baseline),
    responseTimePrediction(recent, baseline),
    spendPrediction(input.spend),
    memoryPrediction(input.memory),
    ...queueBacklogPredictions(input.samples ?? []),
    memoryGrowthPrediction(input.samples ?? [], input.memory),
  ]
    .filter((p): p is Prediction => p !== null)
    .sort((a, b) => order[a.severity] - order[b.severity]);
};

/** critical with any high-severity prediction; warning with any other prediction or degraded health. */
export const systemStatusOf = (
  predictions: readonly Prediction[],
  overallHealth: 'healthy' | 'degraded' | null,
): ProactiveSystemHealth['status'] => {
  if (predictions.some((p) => p.severity === 'high')) return 'critical';
  if (predictions.length > 0 || overallHealth === 'degraded') return 'warning';
  return 'normal';
};

const megabytes = (bytes: number): number => round(bytes / 1024 / 1024, 2);

export const resourceUtilizationOf = (
  usage: NodeJS.MemoryUsage,
): ProactiveSystemHealth['metrics']['resourceUtilization'] => ({
  heapUsed: megabytes(usage.heapUsed),
  heapTotal: megabytes(usage.heapTotal),
  rss: megabytes(usage.rss),
  external: megabytes(usage.external),
});
