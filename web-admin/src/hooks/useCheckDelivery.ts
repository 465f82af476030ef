import { useMutation, useQueryClient } from '@tanstack/react-query';
import { checkDelivery } from '../api/conversations';
import { QueryKeys } from '../query-keys';

/** Re-checks a conversation's delivery status, then refreshes its messages (any Test Data Mode). */
export function useCheckDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: checkDelivery,
    onSuccess: async (_answer, conversationId) => {
      await queryClient.invalidateQueries({
        queryKey: QueryKeys.allConversationMessages(conversationId),
      });
    },
  });
}
