import { useQuery } from '@tanstack/react-query';
import { getConversations } from '../api/conversations';
import { QueryKeys } from '../query-keys';

/**
 * The selected user's conversations for the user panel. The call carries showTestData=false as
 * spec 000 §7 says; the API lists a user's own conversations whatever the flag, so a test user's
 * panel shows theirs too.
 */
export function useUserConversations(userId: string | null) {
  const query = { userId: userId ?? '', showTestData: false };
  return useQuery({
    queryKey: QueryKeys.conversations(query),
    queryFn: () => getConversations(query),
    enabled: userId !== null,
  });
}
