import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createTestUser } from '../api/simulator';
import { QueryKeys } from '../query-keys';

export function useCreateTestUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTestUser,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: QueryKeys.testUsers });
    },
  });
}
