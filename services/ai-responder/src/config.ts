import {
  type ConfigOf,
  conversationIdleTimeoutField,
  coreConfigFields,
  defineConfig,
  field,
  gardeningConfigFields,
  integerSchema,
  openAiConfigFields,
  portField,
  spendTimeZoneField,
  stringSchema,
} from '@sprout/platform';
import { z } from 'zod';

export const SERVICE_NAME = 'ai-responder';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Optional milliseconds; unset falls back to another setting (see `summaryDelayOf`). */
const optionalMs = (min: number, max: number) =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || (/^\d+$/.test(v.trim()) && Number(v) >= min && Number(v) <= max), {
      error: `must be a whole number between ${min} and ${max}`,
    })
    .transform((v) => (v === undefined ? undefined : Number(v)));

export const aiResponderConfig = defineConfig({
  ...coreConfigFields,
  port: portField(3002),
  ...openAiConfigFields,
  ...gardeningConfigFields,
  /** A gap longer than this ends a conversation (and is when its summary is written). */
  conversationIdleTimeoutMs: conversationIdleTimeoutField,
  /** Delay of the conversation summary after each message; default: the idle timeout. */
  summaryDelayMs: field('SUMMARY_DELAY_MS', optionalMs(0, WEEK_MS)),
  /** Deadline of one model call; past it the chain moves to the next tier. */
  llmTimeoutMs: field('LLM_TIMEOUT_MS', integerSchema(15_000, 100, 300_000)),
  /** The day the daily spending limit counts (IANA time zone). */
  spendTimeZone: spendTimeZoneField,
  /** The primary model when an OpenAI key is set but no ai_models row is live. */
  llmDefaultModel: field('LLM_DEFAULT_MODEL', stringSchema('gpt-4o-mini')),
  /** Prompt tokens the earlier messages of a conversation may take (tokenizer-measured). */
  historyTokenBudget: field('HISTORY_TOKEN_BUDGET', integerSchema(2_000, 0, 100_000)),
  /** A reply (survey link and ZIP question included) fits in this many SMS segments. */
  smsMaxSegments: field('SMS_MAX_SEGMENTS', integerSchema(3, 1, 10)),
  /**
   * Replies one replica works on at once. A real model call takes seconds and holds no Postgres
   * connection, so this, not CPU, bounds a replica: 16 at 2 to 3 s a call is about 6 replies/s.
   */
  smsInboundConcurrency: field('SMS_INBOUND_CONCURRENCY', integerSchema(16, 1, 500)),
  /** Conversation summaries (one model call each) one replica writes at once. */
  summarizeConcurrency: field('SUMMARIZE_CONCURRENCY', integerSchema(4, 1, 100)),
  /**
   * Replies one sender (a phone number; test users are exempt) gets per minute, hour and day,
   * counted over the last 60 s, 60 min and 24 h. Past one, the sender gets one notice saying when
   * they are answered again, then nothing (no model call) until then.
   */
  senderRepliesPerMinute: field('SENDER_REPLIES_PER_MINUTE', integerSchema(5, 1, 1_000)),
  senderRepliesPerHour: field('SENDER_REPLIES_PER_HOUR', integerSchema(30, 1, 10_000)),
  senderRepliesPerDay: field('SENDER_REPLIES_PER_DAY', integerSchema(100, 1, 100_000)),
});
export type AiResponderConfig = ConfigOf<typeof aiResponderConfig>;

/** How long after a message its conversation summary runs. */
export const summaryDelayOf = (config: AiResponderConfig): number =>
  config.summaryDelayMs ?? config.conversationIdleTimeoutMs;
