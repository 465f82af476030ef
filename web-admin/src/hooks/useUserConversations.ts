import { useQuery } from '@tanstack/react-query';
import { getUserConversations } from '../api/conversations';
import { QueryKeys } from '../query-keys';
import { useTestDataMode } from './useTestDataMode';

/** The selected user's conversations for the user panel. */
export function useUserConversations(userId: string | null) {
  const { showTestData } = useTestDataMode();
  return useQuery({
    queryKey: QueryKeys.userConversations(userId ?? '', showTestData),
    queryFn: () => getUserConversations(userId ?? '', showTestData),
    enabled: userId !== null,
  });
}
