import { api } from '@sprout/contracts';
import { callEndpoint } from '@sprout/ui';
import { useQuery } from '@tanstack/react-query';
import { QueryKeys } from '../query-keys';

export const SENDER_LIMITS_REFRESH_MS = 30_000;

/** Senders over a per-sender reply limit now or in the last 24 hours. */
export function useSenderLimits() {
  return useQuery({
    queryKey: QueryKeys.senderLimits,
    queryFn: () =>
      callEndpoint(api.users.senderLimits, {}, { failureMessage: 'Failed to fetch rate-limited senders' }),
    refetchInterval: SENDER_LIMITS_REFRESH_MS,
  });
}
