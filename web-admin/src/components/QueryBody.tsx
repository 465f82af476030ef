import { LoadingText } from '@sprout/ui';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FailureNotice } from './StatCard';

/** An answer that is an empty list. */
const emptyList = (data: unknown): boolean => Array.isArray(data) && data.length === 0;

/**
 * A section's body: its loading text, its failure (a string shows in the red FailureNotice, any
 * other node as it is), its empty state (by default for an empty list), or the data.
 */
export function QueryBody<T>({
  query,
  loading,
  failure,
  isEmpty = emptyList,
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
  return <>{empty !== undefined && isEmpty(query.data) ? empty : children(query.data)}</>;
}
