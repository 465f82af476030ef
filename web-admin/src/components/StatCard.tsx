import { Card, CardContent, CardHeader, CardTitle } from '@sprout/ui';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** One stat card of the Dashboard, Users and Messages screens. */
export function StatCard({
  title,
  icon: Icon,
  value,
  detail,
  testId,
  tone = 'default',
  measures,
}: {
  title: string;
  icon: LucideIcon;
  value: ReactNode;
  detail: ReactNode;
  testId: string;
  tone?: 'default' | 'warning';
  /** What the figure measures, when its title alone could be read more than one way. */
  measures?: string;
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader className="flex-row items-center justify-between gap-2 pb-2">
        <CardTitle asChild className="text-sm font-medium text-muted-foreground">
          <h2>{title}</h2>
        </CardTitle>
        <Icon
          className={tone === 'warning' ? 'size-4 text-destructive' : 'size-4 text-primary'}
          aria-hidden="true"
        />
      </CardHeader>
      <CardContent>
        <p className="text-3xl font-bold tracking-tight" data-testid={`${testId}-value`}>
          {value}
        </p>
        <p className="mt-1 text-xs text-muted-foreground" data-testid={`${testId}-detail`}>
          {detail}
        </p>
        {measures !== undefined && (
          <p className="mt-2 border-t pt-2 text-xs text-muted-foreground" data-testid={`${testId}-measures`}>
            {measures}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/** The red box shown in place of a failed section. */
export function FailureNotice({ children }: { children: ReactNode }) {
  return (
    <p
      role="alert"
      className="rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm text-destructive"
    >
      {children}
    </p>
  );
}
