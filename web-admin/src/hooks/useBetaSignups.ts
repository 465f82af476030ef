import { useQuery } from '@tanstack/react-query';
import { getBetaSignups } from '../api/beta-signups';
import { QueryKeys } from '../query-keys';

export function useBetaSignups() {
  return useQuery({ queryKey: QueryKeys.betaSignups, queryFn: getBetaSignups });
}
