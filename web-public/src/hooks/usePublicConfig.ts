import { useQuery } from '@tanstack/react-query';
import { getPublicConfig } from '../api/public-config';
import { queryKeys } from '../query-keys';

/** The public phone number and contact email. */
export function usePublicConfig() {
  return useQuery({ queryKey: queryKeys.publicConfig, queryFn: getPublicConfig });
}
