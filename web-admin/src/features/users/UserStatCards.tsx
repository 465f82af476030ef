import { formatNumber } from '@sprout/ui';
import { Activity, MessageSquare, Percent, UserPlus, Users } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useTestDataMode } from '../../test-data-mode';
import { userStatsQuery } from './queries';
import { formatPercent } from './format';
import { FailureNotice, StatCard } from '../../components/StatCard';
import { usersTexts } from './texts';

/** Users, Active Users (24 h), New Users (this week), Total Messages, Engagement Rate. */
export function UserStatCards() {
  const { data: stats, isPending, isError } = useQuery(userStatsQuery(useTestDataMode().showTestData));
  if (isError) return <FailureNotice>{usersTexts.statsFailed}</FailureNotice>;
  const loading = usersTexts.loadingStats;
  return (
    <section aria-label="User stats" className="grid grid-cols-2 gap-4 lg:grid-cols-3 xl:grid-cols-5">
      <StatCard
        testId="stat-users"
        title="Users"
        icon={Users}
        value={isPending ? loading : formatNumber(stats.totalUsers)}
        detail="Registered by text message"
      />
      <StatCard
        testId="stat-active-users"
        title="Active Users"
        icon={Activity}
        value={isPending ? loading : formatNumber(stats.activeUsers)}
        detail="Last 24 hours"
      />
      <StatCard
        testId="stat-new-users"
        title="New Users"
        icon={UserPlus}
        value={isPending ? loading : formatNumber(stats.newUsers)}
        detail="This week"
      />
      <StatCard
        testId="stat-total-messages"
        title="Total Messages"
        icon={MessageSquare}
        value={isPending ? loading : formatNumber(stats.totalMessages)}
        detail="All time"
      />
      <StatCard
        testId="stat-engagement-rate"
        title="Engagement Rate"
        icon={Percent}
        value={isPending ? loading : `${formatPercent(stats.engagementRate)}%`}
        detail="Active users of all users"
      />
    </section>
  );
}
