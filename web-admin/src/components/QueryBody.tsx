import { LoadingText } from '@sprout/ui';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FailureNotice } from './StatCard';

/**
 * A section's body: its loading text, its failure (a string shows in the red FailureNotice, any
 * other node as it is), its empty state, or the data.
 */
export function QueryBody<T>({
  query,
  loading,
  failure,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  loading: string;
  failure: ReactNode;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingText>{loading}</LoadingText>;
  if (query.isError) return typeof failure === 'string' ? <FailureNotice>{failure}</FailureNotice> : failure;
  return <>{isEmpty?.(query.data) ? empty : children(query.data)}</>;
}
