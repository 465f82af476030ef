import { useQuery } from '@tanstack/react-query';
import { getSimulatorConversation } from '../api/simulator';
import { QueryKeys } from '../query-keys';

/** The selected test user's conversation refreshes every 2 s (spec 001 §4, §9). */
export const SIMULATOR_CONVERSATION_REFRESH_MS = 2_000;

/** A test user's conversation, analytics and profile; nothing is fetched without a user. */
export function useSimulatorConversation(userId: string | null) {
  return useQuery({
    queryKey: QueryKeys.simulatorConversation(userId ?? ''),
    queryFn: () => getSimulatorConversation(userId ?? ''),
    enabled: userId !== null,
    refetchInterval: SIMULATOR_CONVERSATION_REFRESH_MS,
  });
}
