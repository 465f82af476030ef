import type { MessageStats } from '@sprout/contracts';
import { MessageSquare, Reply, TrendingUp, TriangleAlert } from 'lucide-react';
import { useTestDataMode } from '../../test-data-mode';
import { messageStatsQuery } from './queries';
import { formatPercent } from '../users/format';
import { countCard, QueryStatCardRow, type StatCardDef } from '../../components/StatCard';
import { changeFromYesterday, messagesTexts } from './texts';

const CARDS: readonly StatCardDef<MessageStats>[] = [
  countCard('stat-total-messages', 'Total Messages', MessageSquare, (s) => s.totalMessages, 'All time'),
  countCard(
    'stat-messages-today',
    'Messages Today',
    TrendingUp,
    (s) => s.messagesToday,
    (s) => changeFromYesterday(s.changePercent),
  ),
  {
    testId: 'stat-response-rate',
    title: 'Response Rate',
    icon: Reply,
    value: (stats) => `${formatPercent(stats.responseRate)}%`,
    detail: 'Last 24 hours',
  },
  {
    ...countCard(
      'stat-failed-messages',
      'Failed Messages',
      TriangleAlert,
      (s) => s.failedMessages,
      messagesTexts.requiresAttention,
    ),
    tone: 'warning',
  },
];

/** Total Messages, Messages Today, Response Rate (24 h) and Failed Messages. */
export function MessageStatCards() {
  return (
    <QueryStatCardRow
      query={messageStatsQuery(useTestDataMode().showTestData)}
      failed={messagesTexts.statsFailed}
      label="Message stats"
      className="grid grid-cols-2 gap-4 xl:grid-cols-4"
      placeholder={messagesTexts.loadingStats}
      cards={CARDS}
    />
  );
}
