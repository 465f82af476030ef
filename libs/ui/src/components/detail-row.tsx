import type { ReactNode } from 'react';

/** One labelled value of a result list (`<dl>`): the label left, the value right, wrapping when narrow. */
export function DetailRow({
  label,
  testId,
  children,
}: {
  label: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-border py-2 last:border-b-0">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm font-medium break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
