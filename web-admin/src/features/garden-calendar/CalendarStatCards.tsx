import type { GardenCalendarSummary } from '@sprout/contracts';
import { formatNumber } from '@sprout/ui';
import { BellRing, PauseCircle, PlayCircle, Send, UserMinus, Users } from 'lucide-react';
import { countCard, type StatCardDef, StatCardRow } from '../../components/StatCard';
import { calendarTexts as t } from './texts';

/** "4.2%": the opt-out rate after tips, one decimal. */
const percentText = (share: number): string => `${(share * 100).toFixed(1)}%`;

/** The cards; the Tips card's icon says whether tips are running, before the summary is there too. */
const cardsFor = (summary: GardenCalendarSummary | undefined): StatCardDef<GardenCalendarSummary>[] => [
  countCard(
    'stat-subscribers',
    'Subscribers',
    Users,
    (s) => s.subscribers,
    (s) =>
      `${formatNumber(s.offered)} offered · ${formatNumber(s.declined)} declined · ${formatNumber(s.unsubscribed)} stopped`,
  ),
  countCard('stat-sent-30-days', 'Sent (30 days)', Send, (s) => s.sentLast30Days, 'Tips and weather alerts'),
  {
    testId: 'stat-opt-out-rate',
    title: 'Opt-out Rate After Tips',
    icon: UserMinus,
    tone: (s) => ((s.optOutRateAfterTips ?? 0) >= 0.05 ? 'warning' : 'default'),
    value: (s) => (s.optOutRateAfterTips === null ? '—' : percentText(s.optOutRateAfterTips)),
    detail: (s) =>
      s.tippedUsers === 0
        ? t.noRateYet
        : `${formatNumber(s.optedOutAfterTips)} of ${formatNumber(s.tippedUsers)} who got a tip opted out`,
    measures: 'Gardeners who sent TIPS OFF or STOP within 7 days of a tip, of all who got one',
  },
  {
    testId: 'stat-tips-state',
    title: 'Tips',
    icon: summary?.paused ? PauseCircle : summary === undefined ? BellRing : PlayCircle,
    tone: (s) => (s.paused ? 'warning' : 'default'),
    value: (s) => (s.paused ? 'Paused' : 'Running'),
    detail: (s) => (s.paused ? t.pausedState : t.runningState),
  },
];

export function CalendarStatCards({ summary }: { summary: GardenCalendarSummary | undefined }) {
  return (
    <StatCardRow
      label="Garden calendar stats"
      className="grid grid-cols-2 gap-4 xl:grid-cols-4"
      data={summary}
      placeholder={t.loading}
      pendingDetail={t.loading}
      cards={cardsFor(summary)}
    />
  );
}
