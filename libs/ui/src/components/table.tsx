import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';
import { withClasses } from '../lib/with-classes';

export function Table({ className, ...props }: ComponentProps<'table'>) {
  return (
    <div className="relative w-full overflow-x-auto">
      <table className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

export const TableHeader = withClasses('thead', '[&_tr]:border-b');

export const TableBody = withClasses('tbody', '[&_tr:last-child]:border-0');

export const TableRow = withClasses(
  'tr',
  'border-b border-border transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted',
);

export const TableHead = withClasses(
  'th',
  'h-11 px-3 text-left align-middle text-xs font-medium tracking-wide whitespace-nowrap text-muted-foreground uppercase',
);

export const TableCell = withClasses('td', 'p-3 align-middle');

export const TableCaption = withClasses('caption', 'mt-4 text-sm text-muted-foreground');
