import { z } from 'zod';
import { answer, endpoint } from '../http/endpoint';
import { testDataFlag, wholeNumberParam } from '../http/params';
import type { SmsCircuitStateName } from '../sms-circuit';
import type { IsoDateTime } from './common';
import type { MonitoringMessage } from './messages';
import type { AdminMetrics } from './dashboard';

// The monitoring pages (service health, proactive monitoring, the monitoring dashboard, the
// fallback system, queues): their constants, answer types and endpoint table. The
// monitor service writes its state to Redis under `monitorStateKeys`, the api-gateway reads it.

// ---------------------------------------------------------------------------------------------
// Business constants

/** The dependencies the monitor checks. */
export const MONITORED_SERVICES = ['database', 'redis', 'ai_provider', 'sms_provider'] as const;
export type MonitoredService = (typeof MONITORED_SERVICES)[number];

export const MONITORED_SERVICE_LABELS: Readonly<Record<MonitoredService, string>> = {
  database: 'Database',
  redis: 'Redis',
  ai_provider: 'AI Provider',
  sms_provider: 'SMS Provider',
};

/**
 * Consecutive failed checks before a service counts as unavailable (AI provider 3,
 * database 5, SMS provider 3). Redis is a store like the database, so it gets the database's 5.
 */
export const FAILURE_THRESHOLDS: Readonly<Record<MonitoredService, number>> = {
  database: 5,
  redis: 5,
  ai_provider: 3,
  sms_provider: 3,
};

/** Consecutive failed checks before a queue counts as unavailable (stalled or without a worker). */
export const QUEUE_FAILURE_THRESHOLD = 3;
/** A job waiting longer than this (not counting a planned delay) means its queue is not moving. */
export const QUEUE_STALLED_AFTER_SECONDS = 10 * 60;

/** How often the monitor checks (its repeatable monitor.health job). */
export const HEALTH_CHECK_EVERY_SECONDS = 30;
/** No round of checks for this long: the monitor is not running, the figures shown are old. */
export const HEALTH_STALE_AFTER_SECONDS = 3 * HEALTH_CHECK_EVERY_SECONDS;

/** Tiers of the reply pipeline, as llm_calls stores them, in the order the chain tries them. */
export const FALLBACK_TIERS = ['primary', 'fallback', 'template', 'minimal'] as const;
export type FallbackTier = (typeof FALLBACK_TIERS)[number];

export interface FallbackTierInfo {
  tier: FallbackTier;
  /** The fallback levels: normal flow, limited AI, template responses, minimal response. */
  label: string;
  description: string;
}

export const FALLBACK_CHAIN: readonly FallbackTierInfo[] = [
  { tier: 'primary', label: 'Normal flow', description: 'The live model answers.' },
  {
    tier: 'fallback',
    label: 'Limited AI',
    description: 'The fallback model answers when the live model fails or times out.',
  },
  {
    tier: 'template',
    label: 'Template responses',
    description:
      'The offline advisor answers when no model can, or when the daily spending limit is reached.',
  },
  {
    tier: 'minimal',
    label: 'Minimal response',
    description: 'A short apology asking the gardener to text again, when nothing else can answer.',
  },
];

/** Display-only daily limits of the API Monitoring tab (1000 calls and $10). */
export const API_USAGE_DISPLAY_LIMITS = { calls: 1000, cost: 10 } as const;
/** The cost per token the API Monitoring tab shows beside those limits: display only. */
export const API_DISPLAY_COST_PER_TOKEN = 0.000002;

/** Health score bands: 80 and above Excellent, 60 to 79 Good, else Needs Attention. */
export const HEALTH_SCORE_BANDS = { excellent: 80, good: 60 } as const;
export type HealthScoreBand = 'Excellent' | 'Good' | 'Needs Attention';
export const healthScoreBand = (score: number): HealthScoreBand =>
  score >= HEALTH_SCORE_BANDS.excellent
    ? 'Excellent'
    : score >= HEALTH_SCORE_BANDS.good
      ? 'Good'
      : 'Needs Attention';

/** Usage badges: above 80 % destructive, above 60 % secondary, otherwise default. */
export type UsageBadgeVariant = 'destructive' | 'secondary' | 'default';
export const usageBadgeVariant = (percent: number): UsageBadgeVariant =>
  percent > 80 ? 'destructive' : percent > 60 ? 'secondary' : 'default';

/** Response-time trend bar: the value in seconds times 10, capped at 100 (percent). */
export const responseTimeBarPercent = (seconds: number): number => Math.min(Math.max(seconds, 0) * 10, 100);

/** Days a week has: the Conversation Quality tab shows active days out of 7. */
export const QUALITY_WINDOW_DAYS = 7;
/** A reply this long or longer is substantive, and detailed from the second threshold (characters). */
export const SUBSTANTIVE_RESPONSE_CHARS = 80;
export const DETAILED_RESPONSE_CHARS = 240;
/** A reply slower than this (inbound received to reply queued) is slow. */
export const SLOW_RESPONSE_MS = 10_000;

/** GET /api/admin/messages: how many recent messages by default and at most. */
export const RECENT_MESSAGES_DEFAULT_LIMIT = 50;
export const RECENT_MESSAGES_MAX_LIMIT = 200;
/** GET /api/monitoring/queues: failed jobs listed per queue (the newest). */
export const FAILED_JOBS_SHOWN = 10;
/** GET /api/monitoring/fallback: the newest fallbacks listed. */
export const RECENT_FALLBACKS_SHOWN = 20;

// ---------------------------------------------------------------------------------------------
// API usage and conversation quality (monitoring dashboard tabs)

export type AlertLevel = 'high' | 'medium' | 'low';
export type AlertType = 'cost' | 'performance' | 'errors' | 'usage';

export interface ApiUsageAlert {
  level: AlertLevel;
  type: AlertType;
  message: string;
}

/** GET /api/monitoring/api-usage (today's model calls, from midnight UTC). */
export interface ApiUsage {
  calls: number;
  /** Dollars. */
  cost: number;
  tokens: number;
  errors: number;
  /** Milliseconds. */
  averageResponseTime: number;
  /** Recent call latencies in milliseconds, oldest first. */
  responseTimes: number[];
  /** YYYY-MM-DD */
  date: string;
  alerts: ApiUsageAlert[];
}

export interface WeeklyQualityMetrics {
  total_users: number;
  returning_users: number;
  active_users: number;
  total_messages: number;
  substantive_responses: number;
  detailed_responses: number;
  avg_messages_per_user: number;
  /** Milliseconds. */
  avg_response_time: number;
  /** Characters. */
  avg_response_length: number;
  /** Out of 7. */
  active_days: number;
  slow_responses: number;
  total_responses: number;
}

/** GET /api/monitoring/conversation-quality */
export interface ConversationQuality {
  /** 0 to 100: 80+ Excellent, 60-79 Good, below 60 Needs Attention. */
  healthScore: number;
  weeklyMetrics: WeeklyQualityMetrics;
}

// ---------------------------------------------------------------------------------------------
// Service health

export interface ServiceStatus {
  available: boolean;
  lastCheck: IsoDateTime | null;
  consecutiveFailures: number;
}

/** GET /api/monitoring/service-health; services keyed by name (e.g. database, ai_provider, sms_provider). */
export interface ServiceHealth {
  overallHealth: 'healthy' | 'degraded';
  timestamp: IsoDateTime;
  services: Record<string, ServiceStatus>;
}

/** One service's card: its status plus what was checked and how it went. */
export interface ServiceCheck extends ServiceStatus {
  label: string;
  /** Consecutive failures before the service counts as unavailable. */
  threshold: number;
  lastError: string | null;
  latencyMs: number | null;
  /** What answered, e.g. 'openai (84 models)' or 'offline advisor (no OpenAI key)'. */
  detail: string | null;
  /**
   * Who made this check: the monitor (its state in Redis), the api-gateway itself (while it cannot
   * read that state), or nobody (null: not checked, or not known while Redis is unreachable).
   */
  checkedBy: 'monitor' | 'api-gateway' | null;
}

/** One queue as the last round of checks saw it. */
export interface QueueCheck {
  queue: string;
  available: boolean;
  lastCheck: IsoDateTime | null;
  consecutiveFailures: number;
  threshold: number;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  /** Workers connected to the queue. */
  workers: number;
  /** Seconds the oldest waiting job has waited (a planned delay not counted); null when none waits. */
  oldestWaitingSeconds: number | null;
  /** Why the check failed, e.g. '4 jobs waiting and no worker'. */
  problem: string | null;
}

/** The reply pipeline's tier now: the tier that answered the newest reply. */
export interface CurrentTier {
  tier: FallbackTier | null;
  /** When that reply was answered; null before any reply. */
  at: IsoDateTime | null;
}

/**
 * sms-gateway's Twilio send circuit (smsCircuitKey in Redis): closed sends normally; open pauses
 * sending (replies are held) until retryAt; half-open has one probe send in flight.
 */
export interface SmsSending {
  state: SmsCircuitStateName;
  /** Twilio failures in a row since the last success. */
  consecutiveFailures: number;
  /** When the circuit last opened; null if it never has. */
  openedAt: IsoDateTime | null;
  /** Open: when the next probe may go; half-open: when the probe in flight counts as lost. */
  retryAt: IsoDateTime | null;
  lastError: string | null;
  /** Last change; null while nothing has failed yet (no state written). */
  updatedAt: IsoDateTime | null;
}

/** The System Health page: service health with details, queues and the fallback chain. */
export interface ServiceHealthReport extends ServiceHealth {
  services: Record<string, ServiceCheck>;
  queues: QueueCheck[];
  fallback: { chain: readonly FallbackTierInfo[]; current: CurrentTier };
  /** When the monitor last completed a round of checks; null when none has run. */
  lastRoundAt: IsoDateTime | null;
  /** True when no round ran for HEALTH_STALE_AFTER_SECONDS: the monitor is not reporting. */
  stale: boolean;
  /**
   * Why the monitor's state could not be read (Redis unreachable from the api-gateway), else null.
   * The services are then what the api-gateway could check itself; the others are not checked.
   */
  monitorStateError: string | null;
  /** The Twilio send circuit; null when it could not be read (Redis unreachable or its value unreadable). */
  smsSending: SmsSending | null;
}

/** POST /api/monitoring/force-health-check */
export interface ForceHealthCheckResponse {
  success: boolean;
  health: ServiceHealthReport;
}

// ---------------------------------------------------------------------------------------------
// Proactive monitoring

/** Bytes-free view: megabytes, as the page shows them. */
export interface ResourceUtilization {
  heapUsed: number;
  heapTotal: number;
  rss: number;
  external: number;
}

/** GET /api/monitoring/proactive/system-health */
export interface ProactiveSystemHealth {
  status: 'normal' | 'warning' | 'critical';
  timestamp: IsoDateTime;
  activePredictions: number;
  metrics: {
    /** The monitor process. */
    resourceUtilization: ResourceUtilization;
    /** Milliseconds, last hour. */
    averageResponseTime: number;
    /** Percent of failed messages and model calls, last hour. */
    errorRate: number;
    queueDepth: number;
  };
}

export type PredictionLevel = 'high' | 'medium' | 'low';

export interface Prediction {
  type: string;
  severity: PredictionLevel;
  confidence: PredictionLevel;
  /** e.g. "next 1 hour". */
  timeframe: string;
  currentRate: number;
  percentageChange: number;
  recommendedActions: string[];
}

/** What each prediction type is about, for the page. */
export const PREDICTION_TITLES: Readonly<Record<string, string>> = {
  error_rate_increase: 'Error rate rising',
  response_time_degradation: 'Response time rising',
  spending_limit: 'Spend heading for the daily limit',
  queue_backlog: 'Queue backlog growing',
  memory_growth: 'Memory growing',
  memory_pressure: 'Memory near its limit',
};

/** GET /api/monitoring/proactive/predictions */
export interface PredictionsResponse {
  predictions: Prediction[];
  timestamp: IsoDateTime;
}

export interface TrendPoint {
  timestamp: IsoDateTime;
  value: number;
}

export interface Trends {
  /** Seconds per point. */
  responseTimeHistory: TrendPoint[];
  /** Percent per point. */
  errorRateHistory: TrendPoint[];
}

/** GET /api/monitoring/proactive/trends */
export interface TrendsResponse {
  trends: Trends;
  timestamp: IsoDateTime;
}

/** POST /api/monitoring/proactive/force-check */
export interface ProactiveForceCheckResponse {
  success: boolean;
  predictions: Prediction[];
}

/** The proactive state the monitor keeps this long; older means the monitor is not running. */
export const PROACTIVE_STATE_TTL_SECONDS = 10 * 60;

export const PROACTIVE_STATE_MISSING =
  'Proactive monitoring data is not available: the monitor service has not reported in the last 10 minutes.';

// ---------------------------------------------------------------------------------------------
// Fallback system (our page)

export interface FallbackTierUsage extends FallbackTierInfo {
  /** Replies this tier answered. */
  last24Hours: number;
  last7Days: number;
}

export interface FallbackEvent {
  at: IsoDateTime;
  tier: FallbackTier;
  /** Why the chain moved past the live model, e.g. the failed call's error. */
  reason: string;
  /** The model that failed, when one did. */
  failedModel: string | null;
  conversationId: string | null;
}

export interface FailureThreshold {
  service: string;
  label: string;
  failures: number;
}

/** GET /api/monitoring/fallback */
export interface FallbackReport {
  chain: FallbackTierUsage[];
  current: CurrentTier;
  /** Percent of the last 24 hours' replies answered below the live model. */
  fallbackRate24Hours: number;
  recentFallbacks: FallbackEvent[];
  thresholds: FailureThreshold[];
  timestamp: IsoDateTime;
}

export const failureThresholds = (): FailureThreshold[] =>
  MONITORED_SERVICES.map((service) => ({
    service,
    label: MONITORED_SERVICE_LABELS[service],
    failures: FAILURE_THRESHOLDS[service],
  }));

// ---------------------------------------------------------------------------------------------
// Queues panel (System Health)

export interface FailedJob {
  id: string;
  /** The job's payload (ids only). */
  data: Record<string, unknown>;
  failedReason: string;
  attemptsMade: number;
  maxAttempts: number;
  enqueuedAt: IsoDateTime;
  failedAt: IsoDateTime | null;
}

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
}

export interface QueueStatus extends QueueCounts {
  queue: string;
  workers: number;
  /** The newest failed jobs, at most FAILED_JOBS_SHOWN. */
  failedJobs: FailedJob[];
}

/** GET /api/monitoring/queues */
export interface QueuesResponse {
  queues: QueueStatus[];
  timestamp: IsoDateTime;
}

export type QueueJobAction = 'retry' | 'remove';

/** POST .../retry and DELETE /api/monitoring/queues/{queue}/jobs/{jobId} */
export interface QueueJobActionResponse {
  success: boolean;
  action: QueueJobAction;
  queue: string;
  jobId: string;
}

export const QUEUE_NOT_FOUND = 'Queue not found.';
export const JOB_NOT_FOUND = 'Job not found.';
export const JOB_NOT_FAILED = 'Only failed jobs can be retried or removed.';

// ---------------------------------------------------------------------------------------------
// The monitor's state in Redis ({prefix} is BULLMQ_PREFIX). ISO 8601 timestamps throughout.
//
//   {prefix}:monitor:health:services  HASH field = service, value JSON StoredServiceCheck
//   {prefix}:monitor:health:failures  HASH field = service or 'queue:<name>', value = the counter
//   {prefix}:monitor:health:queues    HASH field = queue, value JSON StoredQueueCheck
//   {prefix}:monitor:health:overall   STRING JSON { overallHealth, timestamp }
//   {prefix}:monitor:health:tier      STRING JSON CurrentTier
//   {prefix}:monitor:trends           STRING JSON TrendsResponse        (expires, see PROACTIVE_STATE_TTL_SECONDS)
//   {prefix}:monitor:predictions      STRING JSON PredictionsResponse
//   {prefix}:monitor:system           STRING JSON ProactiveSystemHealth
//   {prefix}:monitor:samples          LIST of JSON MonitorSample, newest first, the last hour

export const monitorStateKeys = (prefix: string) => ({
  services: `${prefix}:monitor:health:services`,
  failures: `${prefix}:monitor:health:failures`,
  queues: `${prefix}:monitor:health:queues`,
  overall: `${prefix}:monitor:health:overall`,
  tier: `${prefix}:monitor:health:tier`,
  trends: `${prefix}:monitor:trends`,
  predictions: `${prefix}:monitor:predictions`,
  system: `${prefix}:monitor:system`,
  samples: `${prefix}:monitor:samples`,
});

const isoDateTime = z.iso.datetime({ offset: true });
const count = z.int().min(0);

export const StoredServiceCheck = z.object({
  available: z.boolean(),
  lastCheck: isoDateTime,
  consecutiveFailures: count,
  lastError: z.string().nullable(),
  latencyMs: z.number().nullable(),
  detail: z.string().nullable(),
});
export type StoredServiceCheck = z.infer<typeof StoredServiceCheck>;

export const StoredQueueCheck = z.object({
  available: z.boolean(),
  lastCheck: isoDateTime,
  consecutiveFailures: count,
  waiting: count,
  active: count,
  delayed: count,
  failed: count,
  workers: count,
  oldestWaitingSeconds: z.number().min(0).nullable(),
  problem: z.string().nullable(),
});
export type StoredQueueCheck = z.infer<typeof StoredQueueCheck>;

export const StoredOverallHealth = z.object({
  overallHealth: z.enum(['healthy', 'degraded']),
  timestamp: isoDateTime,
});
export type StoredOverallHealth = z.infer<typeof StoredOverallHealth>;

export const StoredCurrentTier = z.object({
  tier: z.enum(FALLBACK_TIERS).nullable(),
  at: isoDateTime.nullable(),
});

// ---------------------------------------------------------------------------------------------
// Endpoints

const NoBody = z.object({}, { error: 'The body must be a JSON object' }).nullish();

const QueueJobParams = z.object({
  queue: z.string().min(1, { error: 'Queue name is required' }).max(64, { error: 'Queue not found.' }),
  jobId: z.string().min(1, { error: 'Job id is required' }).max(256, { error: 'Job not found.' }),
});

export const monitoringApi = {
  adminMetrics: endpoint({
    method: 'GET',
    path: '/api/admin/metrics',
    access: 'admin',
    tag: 'monitoring',
    summary: "Monitoring dashboard cards: active users, today's messages, response time and cost",
    description:
      "Real users' figures. Active users: a message in the last 24 hours; today counts from midnight UTC.",
    answer: answer<AdminMetrics>('The four figures'),
  }),
  recentMessages: endpoint({
    method: 'GET',
    path: '/api/admin/messages',
    access: 'admin',
    tag: 'monitoring',
    summary: 'The most recent messages (default 50) with the phone number and ZIP of their user',
    description: "Newest first. Real users' messages unless showTestData=true.",
    query: z.object({
      limit: wholeNumberParam(RECENT_MESSAGES_DEFAULT_LIMIT, 1, RECENT_MESSAGES_MAX_LIMIT),
      showTestData: testDataFlag(),
    }),
    answer: answer<MonitoringMessage[]>('Messages, newest first'),
  }),
  apiUsage: endpoint({
    method: 'GET',
    path: '/api/monitoring/api-usage',
    access: 'admin',
    tag: 'monitoring',
    summary: "Today's model calls: calls, cost, tokens, errors, response times and alerts",
    description:
      'From llm_calls since midnight UTC (model calls only, test users included: the provider bills both). ' +
      'Alerts compare calls and cost with the display limits of 1000 calls and $10.',
    answer: answer<ApiUsage>("Today's API usage"),
  }),
  conversationQuality: endpoint({
    method: 'GET',
    path: '/api/monitoring/conversation-quality',
    access: 'admin',
    tag: 'monitoring',
    summary: "The last 7 days of real users' conversations: health score and weekly metrics",
    answer: answer<ConversationQuality>('Health score (0 to 100) and weekly metrics'),
  }),
  serviceHealth: endpoint({
    method: 'GET',
    path: '/api/monitoring/service-health',
    access: 'admin',
    tag: 'monitoring',
    summary: "The monitor's last round of checks: services, queues, the fallback chain and its tier",
    description:
      'Read from the state the monitor keeps in Redis. A service never checked is unavailable with ' +
      'lastCheck null; stale is true when no round ran for 90 s. When Redis is unreachable it still ' +
      'answers 200: Redis unavailable and the database as the api-gateway checks it itself, the ' +
      'others not checked (checkedBy null), with monitorStateError saying why.',
    answer: answer<ServiceHealthReport>('Service health'),
  }),
  forceHealthCheck: endpoint({
    method: 'POST',
    path: '/api/monitoring/force-health-check',
    access: 'admin',
    tag: 'monitoring',
    summary: 'Runs every check now (monitor.health) and answers the fresh result',
    description: '504 when the monitor does not answer in time (MONITOR_FORCE_CHECK_TIMEOUT_MS).',
    body: NoBody,
    answer: answer<ForceHealthCheckResponse>('The fresh service health'),
  }),
  proactiveSystemHealth: endpoint({
    method: 'GET',
    path: '/api/monitoring/proactive/system-health',
    access: 'admin',
    tag: 'monitoring',
    summary: 'System status, the last hour’s response time, error rate and queue depth, and memory in MB',
    description: '503 when the monitor has not reported for 10 minutes.',
    answer: answer<ProactiveSystemHealth>('System status'),
  }),
  predictions: endpoint({
    method: 'GET',
    path: '/api/monitoring/proactive/predictions',
    access: 'admin',
    tag: 'monitoring',
    summary: 'Active predictions, most severe first',
    description: '503 when the monitor has not reported for 10 minutes.',
    answer: answer<PredictionsResponse>('Predictions'),
  }),
  trends: endpoint({
    method: 'GET',
    path: '/api/monitoring/proactive/trends',
    access: 'admin',
    tag: 'monitoring',
    summary: 'Response time (s) and error rate (%) per 5 minutes over the last hour, oldest first',
    description: '503 when the monitor has not reported for 10 minutes.',
    answer: answer<TrendsResponse>('Trends'),
  }),
  proactiveForceCheck: endpoint({
    method: 'POST',
    path: '/api/monitoring/proactive/force-check',
    access: 'admin',
    tag: 'monitoring',
    summary: 'Computes trends and predictions now (monitor.predict) and answers the predictions',
    description: '504 when the monitor does not answer in time (MONITOR_FORCE_CHECK_TIMEOUT_MS).',
    body: NoBody,
    answer: answer<ProactiveForceCheckResponse>('The fresh predictions'),
  }),
  fallback: endpoint({
    method: 'GET',
    path: '/api/monitoring/fallback',
    access: 'admin',
    tag: 'monitoring',
    summary: 'The fallback chain: replies per tier (24 h, 7 days), the current tier, recent fallbacks',
    answer: answer<FallbackReport>('The fallback system'),
  }),
  queues: endpoint({
    method: 'GET',
    path: '/api/monitoring/queues',
    access: 'admin',
    tag: 'monitoring',
    summary: "Every queue's job counts and workers, with its newest failed jobs",
    answer: answer<QueuesResponse>('Queues'),
  }),
  retryJob: endpoint({
    method: 'POST',
    path: '/api/monitoring/queues/:queue/jobs/:jobId/retry',
    access: 'admin',
    tag: 'monitoring',
    summary: 'Retries a failed job (logged with the admin who asked)',
    description: '404 for an unknown queue or job, 409 when the job has not failed.',
    params: QueueJobParams,
    body: NoBody,
    answer: answer<QueueJobActionResponse>('The job is waiting again'),
  }),
  removeJob: endpoint({
    method: 'DELETE',
    path: '/api/monitoring/queues/:queue/jobs/:jobId',
    access: 'admin',
    tag: 'monitoring',
    summary: 'Removes a failed job (logged with the admin who asked)',
    description: '404 for an unknown queue or job, 409 when the job has not failed.',
    params: QueueJobParams,
    answer: answer<QueueJobActionResponse>('The job is gone'),
  }),
} as const;
