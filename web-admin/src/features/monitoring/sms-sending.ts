import type { SmsSending } from '@sprout/contracts';
import { formatTime } from '@sprout/ui';

// What the SMS Provider card says about sms-gateway's Twilio send circuit.

export const SMS_SENDING_NORMAL = 'Sending: normal';
export const SMS_SENDING_UNKNOWN = "Sending: not known (sms-gateway's send circuit could not be read)";
const SMS_REPLIES_HELD = 'replies are held and will be sent when Twilio recovers';

export interface SmsSendingView {
  paused: boolean;
  text: string;
  /** The last Twilio failure, shown under a paused line. */
  lastError: string | null;
}

export function smsSendingView(sending: SmsSending | null): SmsSendingView {
  if (sending === null) return { paused: false, text: SMS_SENDING_UNKNOWN, lastError: null };
  if (sending.state === 'closed') return { paused: false, text: SMS_SENDING_NORMAL, lastError: null };
  const since = sending.openedAt === null ? '' : ` since ${formatTime(sending.openedAt)}`;
  // Half-open: one probe send is on its way to Twilio now; retryAt is when it counts as lost.
  const next =
    sending.state === 'open'
      ? `next try ${formatTime(sending.retryAt)}`
      : `trying one send now (given up at ${formatTime(sending.retryAt)})`;
  return {
    paused: true,
    text: `Sending paused: Twilio failing (${sending.consecutiveFailures} in a row)${since}; ${next}; ${SMS_REPLIES_HELD}`,
    lastError: sending.lastError === null ? null : `Last error: ${sending.lastError}`,
  };
}
