import { useQuery } from '@tanstack/react-query';
import { getAuthStatus } from '../api/auth';
import { QueryKeys } from '../query-keys';

export function useAuthStatus() {
  return useQuery({ queryKey: QueryKeys.authStatus, queryFn: getAuthStatus });
}
