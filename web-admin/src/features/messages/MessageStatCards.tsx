import { formatNumber } from '@sprout/ui';
import { MessageSquare, Reply, TrendingUp, TriangleAlert } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useTestDataMode } from '../../test-data-mode';
import { messageStatsQuery } from './queries';
import { formatPercent } from '../users/format';
import { FailureNotice, StatCard } from '../../components/StatCard';
import { changeFromYesterday, messagesTexts } from './texts';

/** Total Messages, Messages Today, Response Rate (24 h) and Failed Messages. */
export function MessageStatCards() {
  const { data: stats, isPending, isError } = useQuery(messageStatsQuery(useTestDataMode().showTestData));
  if (isError) return <FailureNotice>{messagesTexts.statsFailed}</FailureNotice>;
  const loading = messagesTexts.loadingStats;
  return (
    <section aria-label="Message stats" className="grid grid-cols-2 gap-4 xl:grid-cols-4">
      <StatCard
        testId="stat-total-messages"
        title="Total Messages"
        icon={MessageSquare}
        value={isPending ? loading : formatNumber(stats.totalMessages)}
        detail="All time"
      />
      <StatCard
        testId="stat-messages-today"
        title="Messages Today"
        icon={TrendingUp}
        value={isPending ? loading : formatNumber(stats.messagesToday)}
        detail={isPending ? '' : changeFromYesterday(stats.changePercent)}
      />
      <StatCard
        testId="stat-response-rate"
        title="Response Rate"
        icon={Reply}
        value={isPending ? loading : `${formatPercent(stats.responseRate)}%`}
        detail="Last 24 hours"
      />
      <StatCard
        testId="stat-failed-messages"
        title="Failed Messages"
        icon={TriangleAlert}
        tone="warning"
        value={isPending ? loading : formatNumber(stats.failedMessages)}
        detail={messagesTexts.requiresAttention}
      />
    </section>
  );
}
