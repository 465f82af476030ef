import { useMutation } from '@tanstack/react-query';
import type { JoinWaitlistBody } from '../api/beta-signup';

export function useJoinWaitlist() {
  return useMutation({
    // Loaded with the first signup: the endpoint's schema brings zod, which the landing page's
    // script budget (120 KB gzipped) leaves no room for.
    mutationFn: async (body: JoinWaitlistBody) => (await import('../api/beta-signup')).joinWaitlist(body),
  });
}
