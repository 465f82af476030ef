import type { MessageStats } from '@sprout/contracts';
import { formatNumber } from '@sprout/ui';
import { MessageSquare, Reply, TrendingUp, TriangleAlert } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useTestDataMode } from '../../test-data-mode';
import { messageStatsQuery } from './queries';
import { formatPercent } from '../users/format';
import { FailureNotice, type StatCardDef, StatCardRow } from '../../components/StatCard';
import { changeFromYesterday, messagesTexts } from './texts';

const CARDS: readonly StatCardDef<MessageStats>[] = [
  {
    testId: 'stat-total-messages',
    title: 'Total Messages',
    icon: MessageSquare,
    value: (stats) => formatNumber(stats.totalMessages),
    detail: 'All time',
  },
  {
    testId: 'stat-messages-today',
    title: 'Messages Today',
    icon: TrendingUp,
    value: (stats) => formatNumber(stats.messagesToday),
    detail: (stats) => changeFromYesterday(stats.changePercent),
  },
  {
    testId: 'stat-response-rate',
    title: 'Response Rate',
    icon: Reply,
    value: (stats) => `${formatPercent(stats.responseRate)}%`,
    detail: 'Last 24 hours',
  },
  {
    testId: 'stat-failed-messages',
    title: 'Failed Messages',
    icon: TriangleAlert,
    tone: 'warning',
    value: (stats) => formatNumber(stats.failedMessages),
    detail: messagesTexts.requiresAttention,
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
