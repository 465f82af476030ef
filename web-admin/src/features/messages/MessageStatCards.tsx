import type { MessageStats } from '@sprout/contracts';
import { MessageSquare, Reply, TrendingUp, TriangleAlert } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useTestDataMode } from '../../test-data-mode';
import { messageStatsQuery } from './queries';
import { formatPercent } from '../users/format';
import { countCard, FailureNotice, type StatCardDef, StatCardRow } from '../../components/StatCard';
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
  const { data, isError } = useQuery(messageStatsQuery(useTestDataMode().showTestData));
  if (isError) return <FailureNotice>{messagesTexts.statsFailed}</FailureNotice>;
  return (
    <StatCardRow
      label="Message stats"
      className="grid grid-cols-2 gap-4 xl:grid-cols-4"
      data={data}
      placeholder={messagesTexts.loadingStats}
      cards={CARDS}
    />
  );
}
