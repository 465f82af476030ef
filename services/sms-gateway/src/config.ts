import { z } from 'zod';
import {
  type ConfigOf,
  conversationIdleTimeoutField,
  coreConfigFields,
  defineConfig,
  field,
  gardenTipsPerMonthField,
  integerSchema,
  numberSchema,
  portField,
  publicBaseUrlField,
  spendTimeZoneField,
  twilioConfigFields,
} from '@sprout/platform';

export const SERVICE_NAME = 'sms-gateway';

const SENDER_RATE = /^\s*(\+[1-9]\d{7,14}|\d{5,6})\s*=\s*(\d+(?:\.\d+)?)\s*$/;

/** Dollars, optional: unset (or empty) means no cap. */
const optionalDollarsSchema = z
  .string()
  .optional()
  .refine((v) => v === undefined || v.trim() === '' || (Number.isFinite(Number(v)) && Number(v) > 0), {
    error: 'must be a number of dollars above 0, or unset for no cap',
  })
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : Number(v)));

/** "number=rate" pairs, comma separated; a rate is segments per second. */
const senderRatesSchema = z
  .string()
  .default('')
  .refine(
    (v) =>
      v
        .split(',')
        .filter((p) => p.trim() !== '')
        .every((p) => {
          const m = SENDER_RATE.exec(p);
          return m !== null && Number(m[2]) > 0;
        }),
    { error: 'must be number=rate pairs separated by commas, e.g. +15035550100=1,12345=100' },
  )
  .transform((v): Record<string, number> =>
    Object.fromEntries(
      v
        .split(',')
        .map((p) => SENDER_RATE.exec(p))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1] ?? '', Number(m[2])]),
    ),
  );

export const smsGatewayConfig = defineConfig({
  ...coreConfigFields,
  port: portField(3001),
  publicBaseUrl: publicBaseUrlField,
  ...twilioConfigFields,
  /** A gap longer than this opens a new conversation for the next inbound message. */
  conversationIdleTimeoutMs: conversationIdleTimeoutField,
  /** Said in the TIPS confirmation. */
  gardenTipsPerMonth: gardenTipsPerMonthField,
  /**
   * Account-wide cap on outbound jobs started per second (every sender together). Per-number
   * pacing below is what matches the carriers; this only bounds the calls on the Twilio account.
   */
  smsSendRatePerSecond: field('SMS_SEND_RATE_PER_SECOND', integerSchema(100, 1, 1000)),
  /** Parallel outbound send jobs per replica (a paced job waits off the worker, delayed in Redis). */
  smsOutboundConcurrency: field('SMS_OUTBOUND_CONCURRENCY', integerSchema(8, 1, 200)),
  /** Parallel status-callback jobs per replica. */
  smsStatusConcurrency: field('SMS_STATUS_CONCURRENCY', integerSchema(8, 1, 200)),
  /**
   * Status callbacks arriving within this many ms of the first go in one sms.status job (each is
   * answered once its job is in Redis); 0: only those arriving in the same event-loop turn.
   */
  smsStatusBatchWaitMs: field('SMS_STATUS_BATCH_WAIT_MS', integerSchema(20, 0, 1000)),
  /** Parallel delivery.check jobs (console checks and the stale-status reconcile) per replica. */
  deliveryCheckConcurrency: field('DELIVERY_CHECK_CONCURRENCY', integerSchema(4, 1, 200)),
  /** Segments per second a US long code (10DLC) number may send; carriers queue or drop above it. */
  smsLongCodeRate: field('SMS_LONG_CODE_RATE', numberSchema(1, 0.01, 10_000)),
  /** Segments per second of a toll-free number (Twilio's default 3; higher when approved). */
  smsTollFreeRate: field('SMS_TOLL_FREE_RATE', numberSchema(3, 0.01, 10_000)),
  /** Segments per second of a short code (100 by default; as provisioned). */
  smsShortCodeRate: field('SMS_SHORT_CODE_RATE', numberSchema(100, 0.01, 10_000)),
  /** Per-number rates overriding the type defaults: "+15035550100=2,+18005550100=25" (segments/s). */
  smsSenderRates: field('SMS_SENDER_RATES', senderRatesSchema),
  /**
   * How long a reply is held and redriven while Twilio fails (outage, 5xx, 429, unreachable),
   * counted from when the reply was written; after it the reply is marked failed.
   */
  smsSendHoldMs: field('SMS_SEND_HOLD_MS', integerSchema(2 * 60 * 60_000, 60_000, 7 * 24 * 60 * 60_000)),
  /** Twilio failures in a row that open the send circuit (sending pauses, replies are held). */
  smsCircuitFailureThreshold: field('SMS_CIRCUIT_FAILURE_THRESHOLD', integerSchema(5, 1, 1000)),
  /** How long the circuit stays open before one probe send tests Twilio again. */
  smsCircuitOpenMs: field('SMS_CIRCUIT_OPEN_MS', integerSchema(30_000, 100, 60 * 60_000)),
  /** Every this often, replies still queued/sent at Twilio are re-read (missed status callbacks). */
  smsStatusReconcileEveryMs: field(
    'SMS_STATUS_RECONCILE_EVERY_MS',
    integerSchema(5 * 60_000, 1_000, 24 * 60 * 60_000),
  ),
  /** A reply's status counts as stale when unchanged this long (re-read, then at doubling intervals). */
  smsStatusStaleAfterMs: field('SMS_STATUS_STALE_AFTER_MS', integerSchema(5 * 60_000, 0, 24 * 60 * 60_000)),
  /**
   * Inbound sweep (a scheduled job every SMS_INBOUND_SWEEP_EVERY_MS, one per deployment): rows of
   * the awaiting-replies outbox older than SMS_INBOUND_SWEEP_AFTER_MS whose job is not in Redis
   * are enqueued again, and whose job failed for good retried, at most SMS_INBOUND_SWEEP_MAX_ATTEMPTS
   * times each; rows older than SMS_INBOUND_SWEEP_MAX_AGE_MS are dropped and logged; at most
   * SMS_INBOUND_SWEEP_BATCH rows per sweep.
   */
  smsInboundSweepEveryMs: field('SMS_INBOUND_SWEEP_EVERY_MS', integerSchema(30_000, 1_000, 60 * 60_000)),
  smsInboundSweepAfterMs: field('SMS_INBOUND_SWEEP_AFTER_MS', integerSchema(30_000, 5_000, 60 * 60_000)),
  smsInboundSweepMaxAgeMs: field(
    'SMS_INBOUND_SWEEP_MAX_AGE_MS',
    // 3 h: past the longest a reply is held through a Twilio outage (SMS_SEND_HOLD_MS, 2 h).
    integerSchema(3 * 60 * 60_000, 60_000, 7 * 24 * 60 * 60_000),
  ),
  smsInboundSweepBatch: field('SMS_INBOUND_SWEEP_BATCH', integerSchema(200, 1, 10_000)),
  smsInboundSweepMaxAttempts: field('SMS_INBOUND_SWEEP_MAX_ATTEMPTS', integerSchema(3, 1, 20)),
  /** What Twilio charges per SMS segment sent (US list price), in dollars: each send records its cost. */
  smsPricePerSegment: field('SMS_PRICE_PER_SEGMENT', numberSchema(0.0083, 0, 10)),
  /** What Twilio charges per MMS sent (US list price, one message whatever its length), in dollars. */
  mmsPricePerMessage: field('MMS_PRICE_PER_MESSAGE', numberSchema(0.022, 0, 10)),
  /**
   * Daily SMS spend cap in dollars (unset: none). At 80% and 100% it is logged once a day; at
   * 100% replies are not sent (recorded failed with the reason) while keyword confirmations
   * (STOP, START, HELP) still are, as carriers require.
   */
  smsDailySpendLimit: field('SMS_DAILY_SPEND_LIMIT', optionalDollarsSchema),
  /** The day the SMS spend cap counts: midnight to midnight in this IANA time zone. */
  spendTimeZone: spendTimeZoneField,
  /** The contact the HELP / INFO answer gives (the same variable the public pages show). */
  contactEmail: field(
    'CONTACT_EMAIL',
    z
      .string()
      .default('hello@sprout.example')
      .refine((v) => z.email().safeParse(v).success, { error: 'must be an email address' }),
  ),
});
export type SmsGatewayConfig = ConfigOf<typeof smsGatewayConfig>;
