import { useMutation, useQueryClient } from '@tanstack/react-query';
import { approveBetaSignup } from '../api/beta-signups';
import { QueryKeys } from '../query-keys';

export function useApproveBetaSignup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveBetaSignup,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: QueryKeys.betaSignups }),
        // The Beta Signups card counts pending signups.
        queryClient.invalidateQueries({ queryKey: QueryKeys.allDashboardMetrics }),
      ]);
    },
  });
}
