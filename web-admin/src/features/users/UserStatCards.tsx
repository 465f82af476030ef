import type { UserOverviewStats } from '@sprout/contracts';
import { formatNumber } from '@sprout/ui';
import { Activity, MessageSquare, Percent, UserPlus, Users } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useTestDataMode } from '../../test-data-mode';
import { userStatsQuery } from './queries';
import { formatPercent } from './format';
import { FailureNotice, type StatCardDef, StatCardRow } from '../../components/StatCard';
import { usersTexts } from './texts';

const CARDS: readonly StatCardDef<UserOverviewStats>[] = [
  {
    testId: 'stat-users',
    title: 'Users',
    icon: Users,
    value: (stats) => formatNumber(stats.totalUsers),
    detail: 'Registered by text message',
  },
  {
    testId: 'stat-active-users',
    title: 'Active Users',
    icon: Activity,
    value: (stats) => formatNumber(stats.activeUsers),
    detail: 'Last 24 hours',
  },
  {
    testId: 'stat-new-users',
    title: 'New Users',
    icon: UserPlus,
    value: (stats) => formatNumber(stats.newUsers),
    detail: 'This week',
  },
  {
    testId: 'stat-total-messages',
    title: 'Total Messages',
    icon: MessageSquare,
    value: (stats) => formatNumber(stats.totalMessages),
    detail: 'All time',
  },
  {
    testId: 'stat-engagement-rate',
    title: 'Engagement Rate',
    icon: Percent,
    value: (stats) => `${formatPercent(stats.engagementRate)}%`,
    detail: 'Active users of all users',
  },
];

/** Users, Active Users (24 h), New Users (this week), Total Messages, Engagement Rate. */
export function UserStatCards() {
  const { data, isError } = useQuery(userStatsQuery(useTestDataMode().showTestData));
  if (isError) return <FailureNotice>{usersTexts.statsFailed}</FailureNotice>;
  return (
    <StatCardRow
      label="User stats"
      className="grid grid-cols-2 gap-4 lg:grid-cols-3 xl:grid-cols-5"
      data={data}
      placeholder={usersTexts.loadingStats}
      cards={CARDS}
    />
  );
}
