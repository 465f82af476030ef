import { type ModelStatsResponse, SPENDING_WARNING_RATIO } from '@sprout/contracts';
import { cn, formatDollars } from '@sprout/ui';
import { AlertTriangle } from 'lucide-react';
import { formatCost } from './model-form';

/** Today's spend as a share of the daily limit, in percent (a limit of 0 is reached at once). */
export function spendPercent(stats: Pick<ModelStatsResponse, 'globalSpending' | 'spendingLimit'>): number {
  if (stats.spendingLimit <= 0) return 100;
  return (stats.globalSpending / stats.spendingLimit) * 100;
}

/** Shown from 80% of the daily limit: spend, limit and percent. */
export function SpendingBanner({ stats }: { stats: ModelStatsResponse }) {
  const percent = spendPercent(stats);
  if (percent < SPENDING_WARNING_RATIO * 100) return null;
  const reached = percent >= 100;
  return (
    <div
      role="status"
      data-testid="spending-banner"
      className={cn(
        'mb-6 flex items-start gap-3 rounded-lg border p-4 text-sm',
        reached
          ? 'border-destructive/40 bg-destructive/10 text-destructive'
          : 'border-amber-300 bg-amber-50 text-amber-900',
      )}
    >
      <AlertTriangle className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div>
        <p className="font-semibold">
          {reached ? 'Daily spending limit reached' : 'Daily spending is close to the limit'}
        </p>
        <p>
          <span data-testid="spending-banner-spend">{formatCost(stats.globalSpending)}</span> spent today of
          the <span data-testid="spending-banner-limit">{formatDollars(stats.spendingLimit, 2)}</span> limit (
          <span data-testid="spending-banner-percent">{percent.toFixed(1)}%</span>).
          {reached ? ' Replies use template answers until midnight.' : ''}
        </p>
      </div>
    </div>
  );
}
