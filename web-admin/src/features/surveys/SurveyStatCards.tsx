import type { SurveyCampaignDto } from '@sprout/contracts';
import { formatNumber } from '@sprout/ui';
import { CheckCircle2, ClipboardList, PlayCircle, Send } from 'lucide-react';
import { type StatCardDef, StatCardRow } from '../../components/StatCard';
import { surveyTexts } from './texts';

/** The four survey cards, from the campaign list. */
function surveyStats(campaigns: readonly SurveyCampaignDto[]) {
  return {
    active: campaigns.filter((c) => c.status === 'live').length,
    total: campaigns.length,
    deliveries: campaigns.reduce((sum, c) => sum + c.deliveredCount, 0),
    completed: campaigns.filter((c) => c.status === 'completed').length,
  };
}

const CARDS: readonly StatCardDef<ReturnType<typeof surveyStats>>[] = [
  {
    testId: 'stat-active-campaigns',
    title: 'Active Campaigns',
    icon: PlayCircle,
    value: (stats) => formatNumber(stats.active),
    detail: 'Live now',
  },
  {
    testId: 'stat-total-campaigns',
    title: 'Total Campaigns',
    icon: ClipboardList,
    value: (stats) => formatNumber(stats.total),
    detail: 'All campaigns',
  },
  {
    testId: 'stat-total-deliveries',
    title: 'Total Deliveries',
    icon: Send,
    value: (stats) => formatNumber(stats.deliveries),
    detail: 'Survey links sent in replies',
  },
  {
    testId: 'stat-completed-campaigns',
    title: 'Completed Campaigns',
    icon: CheckCircle2,
    value: (stats) => formatNumber(stats.completed),
    detail: 'Past their end date',
  },
];

export function SurveyStatCards({ campaigns }: { campaigns: readonly SurveyCampaignDto[] | undefined }) {
  return (
    <StatCardRow
      label="Survey stats"
      className="grid grid-cols-2 gap-4 xl:grid-cols-4"
      data={campaigns === undefined ? undefined : surveyStats(campaigns)}
      placeholder={surveyTexts.loadingStats}
      cards={CARDS}
    />
  );
}
