import { z } from 'zod';

// The Twilio send circuit of sms-gateway, shared by its replicas through Redis. sms-gateway writes
// it; the health page reads it (GET the key, parse the JSON with smsCircuitStateSchema).

/** Redis key of the circuit state (a JSON string), under the deployment's BullMQ prefix. */
export const smsCircuitKey = (bullmqPrefix: string): string => `${bullmqPrefix}:sms:circuit`;

export const SMS_CIRCUIT_STATES = ['closed', 'open', 'half-open'] as const;
export type SmsCircuitStateName = (typeof SMS_CIRCUIT_STATES)[number];

const epochMs = z.int().min(0);

export const smsCircuitStateSchema = z.object({
  /** closed: sending; open: sends paused until retryAt; half-open: one probe send is in flight. */
  state: z.enum(SMS_CIRCUIT_STATES),
  /** Twilio failures in a row (429, 5xx, timeouts, unreachable) since the last success. */
  consecutiveFailures: z.int().min(0),
  /** When the circuit last opened (epoch ms), null if it never has. */
  openedAt: epochMs.nullable(),
  /** Open: when the next probe may go; half-open: when the probe in flight counts as lost. */
  retryAt: epochMs.nullable(),
  /** The last failure's text, e.g. "Service Unavailable", null after a success. */
  lastError: z.string().nullable(),
  /** Last change (epoch ms). */
  updatedAt: epochMs,
});
export type SmsCircuitState = z.output<typeof smsCircuitStateSchema>;

/** What an absent key means: nothing has failed yet. */
export const SMS_CIRCUIT_INITIAL: SmsCircuitState = {
  state: 'closed',
  consecutiveFailures: 0,
  openedAt: null,
  retryAt: null,
  lastError: null,
  updatedAt: 0,
};
