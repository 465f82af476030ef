import type { SurveyCampaignDto } from '@sprout/contracts';
import { formatNumber } from '@sprout/ui';
import { CheckCircle2, ClipboardList, PlayCircle, Send } from 'lucide-react';
import { StatCard } from '../../components/StatCard';
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

export function SurveyStatCards({ campaigns }: { campaigns: readonly SurveyCampaignDto[] | undefined }) {
  const stats = campaigns === undefined ? null : surveyStats(campaigns);
  const value = (n: number | undefined) => (n === undefined ? surveyTexts.loadingStats : formatNumber(n));
  return (
    <section aria-label="Survey stats" className="grid grid-cols-2 gap-4 xl:grid-cols-4">
      <StatCard
        testId="stat-active-campaigns"
        title="Active Campaigns"
        icon={PlayCircle}
        value={value(stats?.active)}
        detail="Live now"
      />
      <StatCard
        testId="stat-total-campaigns"
        title="Total Campaigns"
        icon={ClipboardList}
        value={value(stats?.total)}
        detail="All campaigns"
      />
      <StatCard
        testId="stat-total-deliveries"
        title="Total Deliveries"
        icon={Send}
        value={value(stats?.deliveries)}
        detail="Survey links sent in replies"
      />
      <StatCard
        testId="stat-completed-campaigns"
        title="Completed Campaigns"
        icon={CheckCircle2}
        value={value(stats?.completed)}
        detail="Past their end date"
      />
    </section>
  );
}
