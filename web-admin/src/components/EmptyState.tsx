import { cn } from '@sprout/ui';
import type { LucideIcon } from 'lucide-react';

/** A centred icon, title and hint: the empty states ('No Users Found', 'No conversations found'...). */
export function EmptyState({
  icon: Icon,
  title,
  hint,
  testId,
  headingLevel = 3,
  className,
}: {
  icon: LucideIcon;
  title: string;
  hint: string;
  testId: string;
  headingLevel?: 2 | 3;
  className?: string;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className={cn('flex flex-col items-center gap-2 py-12 text-center', className)} data-testid={testId}>
      <Icon className="size-10 text-muted-foreground" aria-hidden="true" />
      <Heading className="text-lg font-semibold">{title}</Heading>
      <p className="text-sm text-muted-foreground">{hint}</p>
    </div>
  );
}
