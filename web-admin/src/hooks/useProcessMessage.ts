import { useMutation } from '@tanstack/react-query';
import { processMessage } from '../api/testers';

export function useProcessMessage() {
  return useMutation({ mutationFn: processMessage });
}
