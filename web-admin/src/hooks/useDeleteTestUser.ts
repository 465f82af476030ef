import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteTestUser } from '../api/simulator';
import { QueryKeys } from '../query-keys';

export function useDeleteTestUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTestUser,
    onSuccess: async (_answer, userId) => {
      queryClient.removeQueries({ queryKey: QueryKeys.simulatorConversation(userId) });
      await queryClient.invalidateQueries({ queryKey: QueryKeys.testUsers });
    },
  });
}
