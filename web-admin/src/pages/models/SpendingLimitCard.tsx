import { MAX_SPENDING_LIMIT, type ModelStatsResponse } from '@sprout/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  cn,
  formatDollars,
  Input,
  Label,
  serverMessage,
  toast,
} from '@sprout/ui';
import { type FormEvent, useState } from 'react';
import { useSetSpendingLimit } from '../../hooks/useModelMutations';
import { formatCost, parsePrice } from './model-form';
import { spendPercent } from './SpendingBanner';
import { modelToasts, PRICE_STEP } from './texts';

/** Today's spend against the daily limit, and the limit's control. */
export function SpendingLimitCard({ stats }: { stats: ModelStatsResponse }) {
  const save = useSetSpendingLimit();
  // Null: the field shows the saved limit.
  const [typed, setTyped] = useState<string | null>(null);
  const percent = Math.min(100, spendPercent(stats));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const spendingLimit = Math.min(MAX_SPENDING_LIMIT, parsePrice(typed ?? String(stats.spendingLimit)));
    save.mutate(spendingLimit, {
      onSuccess: (saved) => {
        setTyped(null);
        toast({
          title: modelToasts.limitUpdated,
          description: `Replies may spend up to ${formatDollars(saved.spendingLimit, 2)} a day.`,
        });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: modelToasts.saveFailed,
          description: serverMessage(error, 'Failed to update the spending limit'),
        }),
    });
  }

  return (
    <Card data-testid="spending-limit">
      <CardHeader>
        <CardTitle asChild>
          <h2>Daily Spending Limit</h2>
        </CardTitle>
        <CardDescription>
          Once today&apos;s AI spend reaches the limit, replies use template answers until midnight.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div>
          <p className="text-sm">
            <span className="text-2xl font-bold" data-testid="spending-today">
              {formatCost(stats.globalSpending)}
            </span>{' '}
            <span className="text-muted-foreground">of {formatDollars(stats.spendingLimit, 2)} today</span>
          </p>
          <div
            className="mt-2 h-2 max-w-md overflow-hidden rounded-full bg-muted"
            role="progressbar"
            aria-label="Share of today's limit spent"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(percent)}
          >
            <div
              className={cn('h-full', percent >= 80 ? 'bg-destructive' : 'bg-primary')}
              style={{ width: `${percent}%` }}
            />
          </div>
        </div>
        <form onSubmit={onSubmit} noValidate className="flex max-w-md items-end gap-2">
          <div className="grid flex-1 gap-1.5">
            <Label htmlFor="spending-limit">Limit per day (USD)</Label>
            <Input
              id="spending-limit"
              type="number"
              inputMode="decimal"
              min={0}
              max={MAX_SPENDING_LIMIT}
              step={PRICE_STEP}
              value={typed ?? String(stats.spendingLimit)}
              onChange={(e) => setTyped(e.target.value)}
            />
          </div>
          <Button type="submit" disabled={save.isPending || typed === null}>
            Save Limit
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
