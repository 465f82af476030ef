import type { ModelStatsResponse } from '@sprout/contracts';
import { Button, ConfirmDialog, cn, formatDollars, Input, Label, serverMessage, toast } from '@sprout/ui';
import { type FormEvent, useState } from 'react';
import { api } from '@sprout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SectionCard } from '../../components/SectionCard';
import { modelMutation } from './queries';
import { checkSpendingLimit, formatCost } from './model-form';
import { spendPercent } from './SpendingBanner';
import { modelTexts, modelToasts } from './texts';

/** Today's spend against the daily limit, and the limit's control. */
export function SpendingLimitCard({ stats }: { stats: ModelStatsResponse }) {
  const save = useMutation(modelMutation(useQueryClient(), api.models.spendingLimit));
  // Null: the field shows the saved limit.
  const [typed, setTyped] = useState<string | null>(null);
  const [confirmingZero, setConfirmingZero] = useState(false);
  const percent = Math.min(100, spendPercent(stats));
  const check = checkSpendingLimit(typed ?? String(stats.spendingLimit));
  const zero = check.ok && check.value === 0;

  function saveLimit(spendingLimit: number) {
    save.mutate(
      { body: { spendingLimit } },
      {
        onSuccess: (saved) => {
          setTyped(null);
          setConfirmingZero(false);
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
      },
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!check.ok || typed === null) return;
    // A limit of $0 stops every model call: only saved once the admin says so.
    if (check.value === 0) setConfirmingZero(true);
    else saveLimit(check.value);
  }

  return (
    <SectionCard
      title="Daily Spending Limit"
      description="Once today's AI spend reaches the limit, replies use template answers until midnight."
      testId="spending-limit"
      contentClassName="flex flex-col gap-4"
    >
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
      <form onSubmit={onSubmit} noValidate className="flex max-w-md flex-col gap-1.5">
        <Label htmlFor="spending-limit">Limit per day (USD)</Label>
        <div className="flex items-start gap-2">
          {/* Text, not a number field: what was typed stays visible and is checked here. */}
          <Input
            id="spending-limit"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            className="flex-1 aria-[invalid=true]:border-destructive"
            aria-invalid={!check.ok}
            aria-describedby="spending-limit-hint"
            value={typed ?? String(stats.spendingLimit)}
            onChange={(e) => setTyped(e.target.value)}
          />
          <Button type="submit" disabled={save.isPending || typed === null || !check.ok}>
            Save Limit
          </Button>
        </div>
        <p
          id="spending-limit-hint"
          className="min-h-5 text-xs"
          aria-live="polite"
          data-testid="spending-limit-hint"
        >
          {!check.ok ? (
            <span className="text-destructive">{check.message}</span>
          ) : zero ? (
            <span className="font-medium text-amber-700">{modelTexts.zeroLimitWarning}</span>
          ) : null}
        </p>
      </form>
      <ConfirmDialog
        open={confirmingZero}
        onOpenChange={setConfirmingZero}
        title="Set the daily limit to $0?"
        description={modelTexts.zeroLimitWarning}
        confirmLabel="Set Limit to $0"
        pendingLabel="Saving..."
        pending={save.isPending}
        destructive
        onConfirm={() => saveLimit(0)}
        testId="zero-limit-dialog"
      />
    </SectionCard>
  );
}
