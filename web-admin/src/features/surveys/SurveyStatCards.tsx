import type { SurveyCampaignDto } from '@sprout/contracts';
import { CheckCircle2, ClipboardList, PlayCircle, Send } from 'lucide-react';
import { countCard, type StatCardDef, StatCardRow } from '../../components/StatCard';
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
  countCard('stat-active-campaigns', 'Active Campaigns', PlayCircle, (s) => s.active, 'Live now'),
  countCard('stat-total-campaigns', 'Total Campaigns', ClipboardList, (s) => s.total, 'All campaigns'),
  countCard(
    'stat-total-deliveries',
    'Total Deliveries',
    Send,
    (s) => s.deliveries,
    'Survey links sent in replies',
  ),
  countCard(
    'stat-completed-campaigns',
    'Completed Campaigns',
    CheckCircle2,
    (s) => s.completed,
    'Past their end date',
  ),
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
