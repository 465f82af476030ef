import { useQuery } from '@tanstack/react-query';
import { getUserConversations } from '../api/conversations';
import { QueryKeys } from '../query-keys';

/**
 * The selected user's conversations for the user panel. The call carries showTestData=false as
 * spec 000 §7 says; the API lists a user's own conversations whatever the flag, so a test user's
 * panel shows theirs too.
 */
export function useUserConversations(userId: string | null) {
  return useQuery({
    queryKey: QueryKeys.userConversations(userId ?? ''),
    queryFn: () => getUserConversations(userId ?? ''),
    enabled: userId !== null,
  });
}
