import type { SenderRateLimit } from '@sprout/contracts';
import { formatDateTime, formatNumber } from '@sprout/ui';

/** "over 5 replies per minute" */
export const limitInWords = (limit: Pick<SenderRateLimit, 'limit' | 'window'>): string =>
  `over ${formatNumber(limit.limit)} ${limit.limit === 1 ? 'reply' : 'replies'} per ${limit.window}`;

/** "12 texts unanswered" */
export const unansweredInWords = (count: number): string =>
  `${formatNumber(count)} ${count === 1 ? 'text' : 'texts'} unanswered`;

/** When a limited sender is answered again, or when their stretch ended. */
export const resumesInWords = (limit: Pick<SenderRateLimit, 'active' | 'limitedUntil'>): string =>
  `${limit.active ? 'answered again' : 'ended'} ${formatDateTime(limit.limitedUntil)}`;
