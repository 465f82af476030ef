import type { GardenCalendarSummary } from '@sprout/contracts';
import { formatNumber } from '@sprout/ui';
import { BellRing, PauseCircle, PlayCircle, Send, UserMinus, Users } from 'lucide-react';
import { StatCard } from '../../components/StatCard';
import { calendarTexts as t } from './texts';

/** "4.2%": the opt-out rate after tips, one decimal. */
const percentText = (share: number): string => `${(share * 100).toFixed(1)}%`;

export function CalendarStatCards({ summary }: { summary: GardenCalendarSummary | undefined }) {
  const value = (n: number | undefined) => (n === undefined ? t.loading : formatNumber(n));
  return (
    <section aria-label="Garden calendar stats" className="grid grid-cols-2 gap-4 xl:grid-cols-4">
      <StatCard
        testId="stat-subscribers"
        title="Subscribers"
        icon={Users}
        value={value(summary?.subscribers)}
        detail={
          summary === undefined
            ? t.loading
            : `${formatNumber(summary.offered)} offered · ${formatNumber(summary.declined)} declined · ${formatNumber(summary.unsubscribed)} stopped`
        }
      />
      <StatCard
        testId="stat-sent-30-days"
        title="Sent (30 days)"
        icon={Send}
        value={value(summary?.sentLast30Days)}
        detail="Tips and weather alerts"
      />
      <StatCard
        testId="stat-opt-out-rate"
        title="Opt-out Rate After Tips"
        icon={UserMinus}
        tone={summary !== undefined && (summary.optOutRateAfterTips ?? 0) >= 0.05 ? 'warning' : 'default'}
        value={
          summary === undefined
            ? t.loading
            : summary.optOutRateAfterTips === null
              ? '—'
              : percentText(summary.optOutRateAfterTips)
        }
        detail={
          summary === undefined
            ? t.loading
            : summary.tippedUsers === 0
              ? t.noRateYet
              : `${formatNumber(summary.optedOutAfterTips)} of ${formatNumber(summary.tippedUsers)} who got a tip opted out`
        }
        measures="Gardeners who sent TIPS OFF or STOP within 7 days of a tip, of all who got one"
      />
      <StatCard
        testId="stat-tips-state"
        title="Tips"
        icon={summary?.paused ? PauseCircle : summary === undefined ? BellRing : PlayCircle}
        tone={summary?.paused ? 'warning' : 'default'}
        value={summary === undefined ? t.loading : summary.paused ? 'Paused' : 'Running'}
        detail={summary === undefined ? t.loading : summary.paused ? t.pausedState : t.runningState}
      />
    </section>
  );
}
