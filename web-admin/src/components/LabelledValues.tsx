import { cn } from '@sprout/ui';
import type { ReactNode } from 'react';

/** Labels and their values in two columns (a `<dl>`); `strong` says which of the two is bold. */
export function LabelledValues({
  rows,
  className,
  rowTestId,
  strong,
}: {
  rows: readonly { label: string; value: ReactNode }[];
  className: string;
  rowTestId: string;
  strong: 'label' | 'value';
}) {
  return (
    <dl className={className}>
      {rows.map((row) => (
        <div key={row.label} className="contents" data-testid={rowTestId}>
          <dt className={cn('text-muted-foreground', strong === 'label' && 'font-medium')}>{row.label}</dt>
          <dd className={cn('min-w-0 break-words', strong === 'value' && 'font-medium')}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
