import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />;
}

/** The loading texts ('Loading models...' and so on), announced politely to screen readers. */
export function LoadingText({ className, children = 'Loading...', ...props }: ComponentProps<'p'>) {
  return (
    <p
      role="status"
      aria-live="polite"
      className={cn('py-6 text-center text-sm text-muted-foreground', className)}
      {...props}
    >
      {children}
    </p>
  );
}
