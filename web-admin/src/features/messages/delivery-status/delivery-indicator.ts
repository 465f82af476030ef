import type { ConversationMessage } from '@sprout/contracts';

// The delivery status rule, as data: which icon a message gets and what its tooltip says.

export type DeliveryState = 'delivered' | 'failed' | 'pending' | 'unknown' | 'other';

export interface DeliveryIndicator {
  state: DeliveryState;
  /** The tooltip text. */
  tooltip: string;
  /** What a screen reader hears for the icon. */
  label: string;
}

export const UNKNOWN_ERROR = 'Unknown error';

const DELIVERED = new Set(['delivered', 'sent', 'received']);
const FAILED = new Set(['failed', 'undelivered']);

export type DeliveryFields = Pick<ConversationMessage, 'direction' | 'isTestUser' | 'errorMessage'> & {
  status?: string | null | undefined;
};

/**
 * The delivery indicator of a message, or null when it gets none (inbound messages and test
 * users' messages, which are never sent to a phone).
 */
export function deliveryIndicator(message: DeliveryFields): DeliveryIndicator | null {
  if (message.direction === 'inbound' || message.isTestUser) return null;
  const status = message.status?.trim() ?? '';
  const normalised = status.toLowerCase();
  if (status === '') return { state: 'unknown', tooltip: 'Unknown', label: 'Delivery status unknown' };
  if (DELIVERED.has(normalised)) return { state: 'delivered', tooltip: 'Delivered', label: 'Delivered' };
  if (FAILED.has(normalised)) {
    const error = message.errorMessage?.trim() || UNKNOWN_ERROR;
    return { state: 'failed', tooltip: error, label: `Failed: ${error}` };
  }
  if (normalised === 'pending') return { state: 'pending', tooltip: 'Pending', label: 'Pending' };
  return { state: 'other', tooltip: `Status: ${status}`, label: `Status: ${status}` };
}
