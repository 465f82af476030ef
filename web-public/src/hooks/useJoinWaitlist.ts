import { useMutation } from '@tanstack/react-query';
import { joinWaitlist } from '../api/beta-signup';

export function useJoinWaitlist() {
  return useMutation({ mutationFn: joinWaitlist });
}
