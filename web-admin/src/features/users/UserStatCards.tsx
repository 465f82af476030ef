import type { UserOverviewStats } from '@sprout/contracts';
import { Activity, MessageSquare, Percent, UserPlus, Users } from 'lucide-react';
import { useTestDataMode } from '../../test-data-mode';
import { userStatsQuery } from './queries';
import { formatPercent } from './format';
import { countCard, QueryStatCardRow, type StatCardDef } from '../../components/StatCard';
import { usersTexts } from './texts';

const CARDS: readonly StatCardDef<UserOverviewStats>[] = [
  countCard('stat-users', 'Users', Users, (s) => s.totalUsers, 'Registered by text message'),
  countCard('stat-active-users', 'Active Users', Activity, (s) => s.activeUsers, 'Last 24 hours'),
  countCard('stat-new-users', 'New Users', UserPlus, (s) => s.newUsers, 'This week'),
  countCard('stat-total-messages', 'Total Messages', MessageSquare, (s) => s.totalMessages, 'All time'),
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
  return (
    <QueryStatCardRow
      query={userStatsQuery(useTestDataMode().showTestData)}
      failed={usersTexts.statsFailed}
      label="User stats"
      className="grid grid-cols-2 gap-4 lg:grid-cols-3 xl:grid-cols-5"
      placeholder={usersTexts.loadingStats}
      cards={CARDS}
    />
  );
}
