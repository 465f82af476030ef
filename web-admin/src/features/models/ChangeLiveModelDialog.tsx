import type { CostImpactPreview, ModelCostSummary } from '@sprout/contracts';
import {
  Button,
  cn,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  formatNumber,
} from '@sprout/ui';
import { formatCost, formatPrice } from './model-form';

export interface LiveChange {
  preview: CostImpactPreview;
  /** The chosen model is the fallback: the current live model takes its place. */
  swapsFallback: boolean;
}

function ModelCosts({ title, costs }: { title: string; costs: ModelCostSummary }) {
  return (
    <div className="rounded-lg border border-border p-3" data-testid={`cost-${title.toLowerCase()}`}>
      <p className="text-xs font-medium text-muted-foreground uppercase">{title}</p>
      <p className="mb-2 font-semibold" data-testid="cost-model-name">
        {costs.name}
      </p>
      <dl className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Input</dt>
        <dd className="text-right tabular-nums" data-testid="cost-input">
          {formatPrice(costs.inputCost)}
        </dd>
        <dt className="text-muted-foreground">Output</dt>
        <dd className="text-right tabular-nums" data-testid="cost-output">
          {formatPrice(costs.outputCost)}
        </dd>
        <dt className="text-muted-foreground">Average</dt>
        <dd className="text-right tabular-nums" data-testid="cost-average">
          {formatPrice(costs.avgCost)}
        </dd>
      </dl>
      <p className="mt-1 text-xs text-muted-foreground">per 1M tokens</p>
    </div>
  );
}

/** What the percentage and the dollar difference are computed on. */
function basisText(preview: CostImpactPreview): string {
  const { basis, fromModel, toModel } = preview;
  if (basis.kind === 'average') {
    return (
      `No replies in the last ${basis.days} days to project on: the figures compare the average of ` +
      'input and output prices, per million tokens.'
    );
  }
  const replies = `${formatNumber(basis.replies)} ${basis.replies === 1 ? 'reply' : 'replies'}`;
  return (
    `Projected on the last ${basis.days} days of replies (${replies}: ${formatNumber(basis.inputTokens)} ` +
    `input and ${formatNumber(basis.outputTokens)} output tokens, each priced separately). They cost ` +
    `${formatCost(basis.fromCost)} with ${fromModel.name} and would have cost ${formatCost(basis.toCost)} ` +
    `with ${toModel.name}.`
  );
}

/** Confirmation of a new live model, with both models' costs and the change. */
export function ChangeLiveModelDialog({
  change,
  pending,
  onCancel,
  onConfirm,
}: {
  change: LiveChange | null;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const preview = change?.preview;
  const direction =
    preview === undefined || preview.percentageChange === 0
      ? 'No change'
      : preview.percentageChange > 0
        ? 'Increase'
        : 'Decrease';
  const sign = preview !== undefined && preview.percentageChange > 0 ? '+' : '';
  const unit = preview?.basis.kind === 'usage' ? ` over ${preview.basis.days} days` : ' per 1M tokens';
  return (
    <Dialog open={change !== null} onOpenChange={(open) => !open && onCancel()}>
      <DialogContent className="max-w-xl" data-testid="change-live-dialog">
        <DialogHeader>
          <DialogTitle>Change Live Model</DialogTitle>
          <DialogDescription>
            {preview
              ? `Texts will be answered by ${preview.toModel.name} instead of ${preview.fromModel.name}.`
              : ''}
          </DialogDescription>
        </DialogHeader>
        {preview && (
          <div className="flex flex-col gap-4">
            <div className="grid gap-3 sm:grid-cols-2">
              <ModelCosts title="Current" costs={preview.fromModel} />
              <ModelCosts title="New" costs={preview.toModel} />
            </div>
            <div
              className={cn(
                'rounded-lg p-3 text-sm',
                direction === 'Increase' && 'bg-destructive/10 text-destructive',
                direction === 'Decrease' && 'bg-emerald-50 text-emerald-900',
                direction === 'No change' && 'bg-muted',
              )}
              data-testid="cost-change"
            >
              <p className="font-semibold" data-testid="cost-change-label">
                {direction}
              </p>
              <p>
                <span data-testid="cost-change-percent">
                  {sign}
                  {preview.percentageChange.toFixed(2)}%
                </span>{' '}
                ·{' '}
                <span data-testid="cost-change-dollars">
                  {sign}
                  {formatCost(preview.costDifference)}
                </span>
                {unit}
              </p>
            </div>
            <p className="text-xs text-muted-foreground" data-testid="cost-basis">
              {basisText(preview)}
            </p>
            {change?.swapsFallback && (
              <p className="text-sm" data-testid="cost-swap-note">
                {preview.toModel.name} is the fallback model now: {preview.fromModel.name} becomes the
                fallback.
              </p>
            )}
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={onConfirm} disabled={pending}>
            Confirm Change
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
