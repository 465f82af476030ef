import { fetchJson, withQuery } from '@sprout/ui';
import type { MessageStats } from '@sprout/contracts';

/** The four stat cards of the Messages screen. */
export function getMessageStats(showTestData: boolean): Promise<MessageStats> {
  return fetchJson<MessageStats>(
    withQuery('/api/admin/messages/stats', { showTestData }),
    'Failed to fetch message stats',
  );
}
