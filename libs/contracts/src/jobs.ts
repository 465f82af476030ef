import { z } from 'zod';

// Queue names (ARCHITECTURE §3). A queue carries one kind of job, so the queue name is the job name.
export const QUEUE_NAMES = [
  'sms.inbound',
  'sms.outbound',
  'sms.status',
  'delivery.check',
  'image.analyze',
  'conversation.summarize',
  'survey.lifecycle',
  'monitor.health',
  'monitor.predict',
] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export const isQueueName = (value: string): value is QueueName =>
  (QUEUE_NAMES as readonly string[]).includes(value);

// Ids of rows in Postgres (uuid primary keys).
const entityId = z.uuid();

/** Provider delivery statuses as Twilio reports them in status callbacks. */
export const PROVIDER_MESSAGE_STATUSES = [
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
  'receiving',
  'received',
  'partially_delivered',
] as const;
export type ProviderMessageStatus = (typeof PROVIDER_MESSAGE_STATUSES)[number];

export const jobSchemas = {
  /** An inbound SMS already stored in `messages`; ai-responder answers it. */
  'sms.inbound': z.object({ messageId: entityId }),
  /** An outbound message row (status queued) that sms-gateway sends. */
  'sms.outbound': z.object({ messageId: entityId }),
  /** A Twilio status callback, applied forward-only to the message with that provider sid. */
  'sms.status': z.object({
    providerSid: z.string().trim().min(1).max(64),
    status: z.enum(PROVIDER_MESSAGE_STATUSES),
    errorCode: z.string().trim().min(1).max(32).optional(),
    errorMessage: z.string().max(1000).optional(),
  }),
  /** Re-check the provider status of a conversation's outbound messages. */
  'delivery.check': z.object({ conversationId: entityId, requestedAt: z.iso.datetime({ offset: true }) }),
  /** One media attachment of an inbound MMS. */
  'image.analyze': z.object({ messageId: entityId, mediaIndex: z.int().min(0).max(9) }),
  /** Summarise a conversation once it has gone idle. */
  'conversation.summarize': z.object({ conversationId: entityId }),
  /** Advance campaign states and target audiences; without a campaign id, every campaign. */
  'survey.lifecycle': z.object({ campaignId: entityId.optional() }),
  'monitor.health': z.object({}),
  'monitor.predict': z.object({}),
} as const satisfies Record<QueueName, z.ZodType>;

export type JobSchemas = typeof jobSchemas;
/** The payload type of a queue's job, e.g. `JobPayload<'sms.inbound'>` = `{ messageId: string }`. */
export type JobPayload<Q extends QueueName> = z.output<JobSchemas[Q]>;
/** What a producer may pass before parsing (same as the payload: no defaults or transforms). */
export type JobPayloadInput<Q extends QueueName> = z.input<JobSchemas[Q]>;

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
    // The stored message is unique per Twilio MessageSid, so its id is as good a key as the sid.
    jobId: (p) => `inbound-${safeId(p.messageId)}`,
    attempts: 5,
    backoffMs: 2_000,
    retention: standardRetention,
  },
  'sms.outbound': {
    queue: 'sms.outbound',
    schema: jobSchemas['sms.outbound'],
    jobId: (p) => `outbound-${safeId(p.messageId)}`,
    attempts: 6,
    backoffMs: 2_000,
    retention: standardRetention,
  },
  'sms.status': {
    queue: 'sms.status',
    schema: jobSchemas['sms.status'],
    jobId: (p) => `status-${safeId(p.providerSid)}-${p.status}`,
    attempts: 5,
    backoffMs: 1_000,
    retention: standardRetention,
  },
  'delivery.check': {
    queue: 'delivery.check',
    schema: jobSchemas['delivery.check'],
    jobId: (p) => `delivery-${safeId(p.conversationId)}-${Math.floor(Date.parse(p.requestedAt) / 60_000)}`,
    attempts: 3,
    backoffMs: 2_000,
    retention: shortRetention,
  },
  'image.analyze': {
    queue: 'image.analyze',
    schema: jobSchemas['image.analyze'],
    jobId: (p) => `image-${safeId(p.messageId)}-${p.mediaIndex}`,
    attempts: 3,
    backoffMs: 5_000,
    retention: standardRetention,
  },
  'conversation.summarize': {
    queue: 'conversation.summarize',
    schema: jobSchemas['conversation.summarize'],
    deduplicate: { id: (p) => `summarize-${safeId(p.conversationId)}`, reschedule: true },
    attempts: 3,
    backoffMs: 10_000,
    retention: standardRetention,
  },
  'survey.lifecycle': {
    queue: 'survey.lifecycle',
    schema: jobSchemas['survey.lifecycle'],
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
    attempts: 1,
    backoffMs: 1_000,
    retention: shortRetention,
  },
  'monitor.predict': {
    queue: 'monitor.predict',
    schema: jobSchemas['monitor.predict'],
    attempts: 1,
    backoffMs: 1_000,
    retention: shortRetention,
  },
};

/** Parses a payload with its queue's schema; throws a ZodError naming the bad fields. */
export const parseJobPayload = <Q extends QueueName>(queue: Q, payload: unknown): JobPayload<Q> =>
  jobSchemas[queue].parse(payload) as JobPayload<Q>;

/** What the sms.inbound handler answers (the simulator waits for it, then reads the reply row). */
export interface SmsInboundJobResult {
  outcome: 'replied' | 'already-replied' | 'opted-out' | 'missing';
  /** The reply's message id; null when no reply was written. */
  replyMessageId: string | null;
}

/** What the delivery.check handler answers. */
export interface DeliveryCheckJobResult {
  /** Messages whose stored status changed. */
  changed: number;
}
