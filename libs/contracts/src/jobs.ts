import { z } from 'zod';
import {
  CAMPAIGN_STATUS_VALUES,
  type PredictionsResponse,
  type ProactiveSystemHealth,
  type ServiceHealth,
  type TrendsResponse,
} from './api';

// Queue names. A queue carries one kind of job, so the queue name is the job name.
export const QUEUE_NAMES = [
  'sms.inbound',
  'sms.outbound',
  'sms.status',
  'delivery.check',
  'sms.inbound-sweep',
  'image.analyze',
  'conversation.summarize',
  'survey.lifecycle',
  'monitor.health',
  'monitor.predict',
  'calendar.plan',
  'calendar.send',
  'calendar.weather',
] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export const isQueueName = (value: string): value is QueueName =>
  (QUEUE_NAMES as readonly string[]).includes(value);

// Ids of rows in Postgres (uuid primary keys).
const entityId = z.uuid();

/** What Twilio reports of a message we sent, from queued to read. */
export const OUTBOUND_PROVIDER_STATUSES = [
  'queued',
  'accepted',
  'scheduled',
  'sending',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'read',
  'canceled',
] as const;

/** Provider delivery statuses as Twilio reports them in status callbacks. */
export const PROVIDER_MESSAGE_STATUSES = [
  ...OUTBOUND_PROVIDER_STATUSES,
  'receiving',
  'received',
  'partially_delivered',
] as const;
export type ProviderMessageStatus = (typeof PROVIDER_MESSAGE_STATUSES)[number];

/** A Twilio status callback as the webhook queues it. */
export const statusCallbackSchema = z.object({
  providerSid: z.string().trim().min(1).max(64),
  status: z.enum(PROVIDER_MESSAGE_STATUSES),
  errorCode: z.string().trim().min(1).max(32).optional(),
  errorMessage: z.string().max(1000).optional(),
});
export type StatusCallback = z.output<typeof statusCallbackSchema>;
/** Callbacks one sms.status job carries at most. */
export const STATUS_CALLBACKS_PER_JOB = 200;

export const jobSchemas = {
  /** An inbound SMS already stored in `messages`; ai-responder answers it. */
  'sms.inbound': z.object({ messageId: entityId }),
  /** An outbound message row (status queued) that sms-gateway sends. */
  'sms.outbound': z.object({ messageId: entityId }),
  /**
   * Twilio status callbacks in their order of arrival, each applied forward-only to the message
   * with its provider sid (the webhook adds one job per few milliseconds of callbacks).
   */
  'sms.status': z.object({ callbacks: z.array(statusCallbackSchema).min(1).max(STATUS_CALLBACKS_PER_JOB) }),
  /**
   * Re-check the provider status of a conversation's outbound messages; without a conversation
   * id, of every reply whose status has gone stale (sms-gateway's scheduled reconciliation).
   */
  'delivery.check': z.object({
    conversationId: entityId.optional(),
    requestedAt: z.iso.datetime({ offset: true }),
  }),
  /** sms-gateway's scheduled look at the awaiting-replies outbox for texts whose job was lost. */
  'sms.inbound-sweep': z.object({}),
  /** One media attachment of an inbound MMS. */
  'image.analyze': z.object({ messageId: entityId, mediaIndex: z.int().min(0).max(9) }),
  /** Summarise a conversation once it has gone idle. */
  'conversation.summarize': z.object({ conversationId: entityId }),
  /** Advance campaign states and target audiences; without a campaign id, every campaign. */
  'survey.lifecycle': z.object({ campaignId: entityId.optional() }),
  'monitor.health': z.object({}),
  'monitor.predict': z.object({}),
  /** survey-scheduler's scheduled planning of subscribers' tips for the next 14 days. */
  'calendar.plan': z.object({}),
  /** survey-scheduler's scheduled look at garden calendar texts now due. */
  'calendar.send': z.object({}),
  /** survey-scheduler's scheduled check of the NWS forecast at subscribers' grids. */
  'calendar.weather': z.object({}),
} as const satisfies Record<QueueName, z.ZodType>;

export type JobSchemas = typeof jobSchemas;
/** The payload type of a queue's job, e.g. `JobPayload<'sms.inbound'>` = `{ messageId: string }`. */
export type JobPayload<Q extends QueueName> = z.output<JobSchemas[Q]>;
/** What a producer may pass before parsing (same as the payload: no defaults or transforms). */
export type JobPayloadInput<Q extends QueueName> = z.input<JobSchemas[Q]>;

// Job results: what a queue's handler answers (stored by BullMQ as the job's return value, JSON).
// @OnJob handlers must return this type; JobQueues.enqueueAndWait parses it on the waiting side.

const count = z.int().min(0);
const isoDateTime = z.iso.datetime({ offset: true });

/**
 * Keeps a schema that stands for an API type only when both describe the same shape (a compile
 * error otherwise), so parsing neither drops a field of the API type nor invents one.
 */
const sameShapeAs =
  <T>() =>
  <S extends z.ZodType<T>>(schema: S & ([T] extends [z.output<S>] ? unknown : never)): S =>
    schema;

const serviceHealthResult = sameShapeAs<ServiceHealth>()(
  z.object({
    overallHealth: z.enum(['healthy', 'degraded']),
    timestamp: isoDateTime,
    services: z.record(
      z.string(),
      z.object({ available: z.boolean(), lastCheck: isoDateTime.nullable(), consecutiveFailures: count }),
    ),
  }),
);

const level = z.enum(['high', 'medium', 'low']);
const trendPoints = z.array(z.object({ timestamp: isoDateTime, value: z.number() }));
const trendsResult = sameShapeAs<TrendsResponse>()(
  z.object({
    trends: z.object({ responseTimeHistory: trendPoints, errorRateHistory: trendPoints }),
    timestamp: isoDateTime,
  }),
);
const predictionsResult = sameShapeAs<PredictionsResponse>()(
  z.object({
    predictions: z.array(
      z.object({
        type: z.string(),
        severity: level,
        confidence: level,
        timeframe: z.string(),
        currentRate: z.number(),
        percentageChange: z.number(),
        recommendedActions: z.array(z.string()),
      }),
    ),
    timestamp: isoDateTime,
  }),
);
const systemResult = sameShapeAs<ProactiveSystemHealth>()(
  z.object({
    status: z.enum(['normal', 'warning', 'critical']),
    timestamp: isoDateTime,
    activePredictions: count,
    metrics: z.object({
      resourceUtilization: z.object({
        heapUsed: z.number(),
        heapTotal: z.number(),
        rss: z.number(),
        external: z.number(),
      }),
      averageResponseTime: z.number(),
      errorRate: z.number(),
      queueDepth: count,
    }),
  }),
);

export const jobResultSchemas = {
  /** The simulator waits for it, then reads the reply row; replyMessageId is null when none was written. */
  'sms.inbound': z.object({
    /** 'rate-limited': the sender is over a reply limit and had their notice: no reply. */
    outcome: z.enum(['replied', 'already-replied', 'opted-out', 'rate-limited', 'missing']),
    replyMessageId: entityId.nullable(),
  }),
  'sms.outbound': z.enum(['sent', 'test-user', 'opted-out', 'failed', 'already-sent', 'missing']),
  /** Callbacks by outcome; ignored: a provider status the platform does not track. */
  'sms.status': z.object({ updated: count, unchanged: count, unknownMessage: count, ignored: count }),
  /** Outbound messages whose provider status was read, and of those the ones whose status changed. */
  'delivery.check': z.object({ checked: count, changed: count }),
  /** What one sweep did with the outbox rows it read, and the rows it gave up on. */
  'sms.inbound-sweep': z.object({
    /** No job in Redis: added again under the webhook's job id. */
    enqueued: count,
    /** The job had failed for good (its attempts used up): retried. */
    retried: count,
    /** The job is still waiting, delayed, running or waiting for its children. */
    inQueue: count,
    /** The job had completed without settling its row (an older worker): the row is dropped. */
    settled: count,
    /** Lost or failed again after SMS_INBOUND_SWEEP_MAX_ATTEMPTS sweeps: dropped, logged. */
    abandoned: count,
    /** Older than SMS_INBOUND_SWEEP_MAX_AGE_MS: dropped, logged. */
    expired: count,
  }),
  'image.analyze': z.object({
    status: z.enum(['processed', 'failed', 'skipped']),
    messageId: entityId,
    mediaIndex: z.int().min(0).max(9),
    analysis: z.string().nullable(),
    contentType: z.string().nullable(),
    tokensUsed: count,
    /** Dollars. */
    cost: z.number().min(0),
    model: z.string().nullable(),
    /** Milliseconds from job start to result. */
    processingTime: z.number().min(0),
    error: z.string().nullable(),
  }),
  'conversation.summarize': z.object({
    outcome: z.enum(['summarized', 'not-idle', 'up-to-date', 'missing']),
    /** A model name, "rules" (no model), or null when nothing was written. */
    writtenBy: z.string().nullable(),
  }),
  'survey.lifecycle': z.object({
    /** Campaigns looked at. */
    campaigns: count,
    transitions: z.array(
      z.object({
        campaignId: entityId,
        from: z.enum(CAMPAIGN_STATUS_VALUES),
        to: z.enum(CAMPAIGN_STATUS_VALUES),
      }),
    ),
    /** Deliveries created by this run (users newly targeted). */
    newlyTargeted: count,
  }),
  /** The console's Force Health Check shows it. */
  'monitor.health': serviceHealthResult,
  /** What the proactive pages show, as stored for them. */
  'monitor.predict': z.object({
    trends: trendsResult,
    predictions: predictionsResult,
    system: systemResult,
  }),
  'calendar.plan': z.object({
    /** Subscribers planned for (with a known ZIP). */
    subscribers: count,
    /** Tips newly scheduled, and those recorded skipped as over the monthly cap. */
    scheduled: count,
    capped: count,
    /** Paused from the console: nothing planned. */
    paused: z.boolean(),
  }),
  'calendar.send': z.object({
    sent: count,
    /** Skipped (paused, stale) or cancelled (opted out, tips off) at send time. */
    skipped: count,
    cancelled: count,
    /** Due but outside the user's daytime: left for later. */
    later: count,
  }),
  'calendar.weather': z.object({
    /** NWS grids whose forecast was read, and those the NWS did not answer (tried again next run). */
    grids: count,
    failed: count,
    /** Alerts newly raised, and texts scheduled for them. */
    alerts: count,
    texts: count,
  }),
} as const satisfies Record<QueueName, z.ZodType>;

export type JobResultSchemas = typeof jobResultSchemas;
/** What a queue's handler answers, e.g. `JobResult<'delivery.check'>` = `{ checked; changed }`. */
export type JobResult<Q extends QueueName> = z.output<JobResultSchemas[Q]>;

export interface JobRetention {
  /** Completed jobs kept this many seconds and at most this many (jobId idempotency lasts as long). */
  completedAgeSeconds: number;
  completedCount: number;
  /** Failed jobs kept (bounded) so they show on the health page. */
  failedAgeSeconds: number;
  failedCount: number;
}

export interface JobDefinition<Q extends QueueName> {
  queue: Q;
  schema: JobSchemas[Q];
  /** What the queue's handler answers. */
  result: JobResultSchemas[Q];
  /**
   * Custom BullMQ job id: the same id is never added twice while the job is retained.
   * BullMQ rejects ':' in custom ids, so parts are joined with '-'.
   */
  jobId?: (payload: JobPayload<Q>) => string;
  /**
   * Deduplication key: while a job with this key waits or is delayed, a new add does not create a
   * second one (rescheduled to the new delay when `reschedule`). Used where a job must run again
   * after the previous one finished, which a retained custom job id would silently prevent.
   */
  deduplicate?: { id: (payload: JobPayload<Q>) => string; reschedule: boolean };
  attempts: number;
  /** Base delay of the exponential backoff between attempts. */
  backoffMs: number;
  retention: JobRetention;
}

const DAY = 24 * 60 * 60;
const standardRetention: JobRetention = {
  completedAgeSeconds: DAY,
  completedCount: 5000,
  failedAgeSeconds: 14 * DAY,
  failedCount: 1000,
};
const shortRetention: JobRetention = {
  completedAgeSeconds: 60 * 60,
  completedCount: 200,
  failedAgeSeconds: 7 * DAY,
  failedCount: 200,
};

const safeId = (value: string): string => value.replace(/[^A-Za-z0-9_.-]/g, '_');

export const jobDefinitions: { [Q in QueueName]: JobDefinition<Q> } = {
  'sms.inbound': {
    queue: 'sms.inbound',
    schema: jobSchemas['sms.inbound'],
    result: jobResultSchemas['sms.inbound'],
    // The stored message is unique per Twilio MessageSid, so its id is as good a key as the sid.
    jobId: (p) => `inbound-${safeId(p.messageId)}`,
    attempts: 5,
    backoffMs: 2_000,
    retention: standardRetention,
  },
  'sms.outbound': {
    queue: 'sms.outbound',
    schema: jobSchemas['sms.outbound'],
    result: jobResultSchemas['sms.outbound'],
    jobId: (p) => `outbound-${safeId(p.messageId)}`,
    attempts: 6,
    backoffMs: 2_000,
    retention: standardRetention,
  },
  'sms.status': {
    queue: 'sms.status',
    schema: jobSchemas['sms.status'],
    result: jobResultSchemas['sms.status'],
    // No custom id: a repeated callback is applied again and changes nothing (forward-only).
    attempts: 5,
    backoffMs: 1_000,
    retention: standardRetention,
  },
  'delivery.check': {
    queue: 'delivery.check',
    schema: jobSchemas['delivery.check'],
    result: jobResultSchemas['delivery.check'],
    jobId: (p) =>
      `delivery-${p.conversationId === undefined ? 'stale' : safeId(p.conversationId)}-${Math.floor(Date.parse(p.requestedAt) / 60_000)}`,
    attempts: 3,
    backoffMs: 2_000,
    retention: shortRetention,
  },
  'sms.inbound-sweep': {
    queue: 'sms.inbound-sweep',
    schema: jobSchemas['sms.inbound-sweep'],
    result: jobResultSchemas['sms.inbound-sweep'],
    // A job scheduler adds it; a failed sweep is simply the next interval's to redo.
    attempts: 1,
    backoffMs: 1_000,
    retention: shortRetention,
  },
  'image.analyze': {
    queue: 'image.analyze',
    schema: jobSchemas['image.analyze'],
    result: jobResultSchemas['image.analyze'],
    jobId: (p) => `image-${safeId(p.messageId)}-${p.mediaIndex}`,
    attempts: 3,
    backoffMs: 5_000,
    retention: standardRetention,
  },
  'conversation.summarize': {
    queue: 'conversation.summarize',
    schema: jobSchemas['conversation.summarize'],
    result: jobResultSchemas['conversation.summarize'],
    deduplicate: { id: (p) => `summarize-${safeId(p.conversationId)}`, reschedule: true },
    attempts: 3,
    backoffMs: 10_000,
    retention: standardRetention,
  },
  'survey.lifecycle': {
    queue: 'survey.lifecycle',
    schema: jobSchemas['survey.lifecycle'],
    result: jobResultSchemas['survey.lifecycle'],
    deduplicate: {
      id: (p) => `survey-${p.campaignId === undefined ? 'all' : safeId(p.campaignId)}`,
      reschedule: false,
    },
    attempts: 3,
    backoffMs: 5_000,
    retention: shortRetention,
  },
  'monitor.health': {
    queue: 'monitor.health',
    schema: jobSchemas['monitor.health'],
    result: jobResultSchemas['monitor.health'],
    attempts: 1,
    backoffMs: 1_000,
    retention: shortRetention,
  },
  'monitor.predict': {
    queue: 'monitor.predict',
    schema: jobSchemas['monitor.predict'],
    result: jobResultSchemas['monitor.predict'],
    attempts: 1,
    backoffMs: 1_000,
    retention: shortRetention,
  },
  // Job schedulers add these; each run is idempotent and a failed one is the next run's to redo.
  'calendar.plan': {
    queue: 'calendar.plan',
    schema: jobSchemas['calendar.plan'],
    result: jobResultSchemas['calendar.plan'],
    attempts: 1,
    backoffMs: 1_000,
    retention: shortRetention,
  },
  'calendar.send': {
    queue: 'calendar.send',
    schema: jobSchemas['calendar.send'],
    result: jobResultSchemas['calendar.send'],
    attempts: 1,
    backoffMs: 1_000,
    retention: shortRetention,
  },
  'calendar.weather': {
    queue: 'calendar.weather',
    schema: jobSchemas['calendar.weather'],
    result: jobResultSchemas['calendar.weather'],
    attempts: 1,
    backoffMs: 1_000,
    retention: shortRetention,
  },
};

/** Parses a payload with its queue's schema; throws a ZodError naming the bad fields. */
export const parseJobPayload = <Q extends QueueName>(queue: Q, payload: unknown): JobPayload<Q> =>
  jobSchemas[queue].parse(payload) as JobPayload<Q>;

/** Parses a job's return value with its queue's result schema; throws a ZodError naming the bad fields. */
export const parseJobResult = <Q extends QueueName>(queue: Q, value: unknown): JobResult<Q> =>
  jobResultSchemas[queue].parse(value) as JobResult<Q>;

/** What the sms.inbound handler answers (the simulator waits for it, then reads the reply row). */
export type SmsInboundJobResult = JobResult<'sms.inbound'>;

/** What the delivery.check handler answers. */
export type DeliveryCheckJobResult = JobResult<'delivery.check'>;
