// Outbound delivery status, forward-only. Twilio's callbacks can arrive out of order (a "sent"
// after "delivered"); the stored status only ever moves forward.
import { OUTBOUND_PROVIDER_STATUSES } from '@sprout/contracts';

/** Ours (pending: recorded, not yet handed to the provider), then the provider's. */
export const SMS_DELIVERY_STATUSES = ['pending', ...OUTBOUND_PROVIDER_STATUSES] as const;

export type SmsDeliveryStatus = (typeof SMS_DELIVERY_STATUSES)[number];

const RANK: Record<SmsDeliveryStatus, number> = {
  pending: 0, // recorded by us, not yet handed to the provider
  queued: 1,
  accepted: 2,
  scheduled: 2,
  sending: 3,
  sent: 4,
  delivered: 5,
  undelivered: 5,
  failed: 5,
  canceled: 5,
  read: 6,
};

const FINAL: ReadonlySet<SmsDeliveryStatus> = new Set([
  'delivered',
  'undelivered',
  'failed',
  'canceled',
  'read',
]);
const FAILED: ReadonlySet<SmsDeliveryStatus> = new Set(['undelivered', 'failed', 'canceled']);

export function isSmsDeliveryStatus(value: unknown): value is SmsDeliveryStatus {
  return typeof value === 'string' && (SMS_DELIVERY_STATUSES as readonly string[]).includes(value);
}

/** Reads a provider status string ("Delivered", "sent"); null for statuses we do not track. */
export function parseDeliveryStatus(value: string | null | undefined): SmsDeliveryStatus | null {
  const normalized = value?.trim().toLowerCase();
  return isSmsDeliveryStatus(normalized) ? normalized : null;
}

export function isFinalStatus(status: SmsDeliveryStatus): boolean {
  return FINAL.has(status);
}

export function isFailedStatus(status: SmsDeliveryStatus): boolean {
  return FAILED.has(status);
}

/**
 * The status after an incoming update: the incoming one when it is further along, otherwise the
 * current one. Among final statuses the first one wins (delivered does not become failed), and
 * "read" only follows a delivered message.
 */
export function nextStatus(current: SmsDeliveryStatus, incoming: SmsDeliveryStatus): SmsDeliveryStatus {
  if (incoming === 'read') return isFailedStatus(current) ? current : 'read';
  return RANK[incoming] > RANK[current] ? incoming : current;
}
