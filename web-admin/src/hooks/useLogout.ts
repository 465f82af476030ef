import { useMutation, useQueryClient } from '@tanstack/react-query';
import { logout } from '../api/auth';

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    // Nothing fetched for this admin may outlive the session.
    onSettled: () => queryClient.clear(),
  });
}
