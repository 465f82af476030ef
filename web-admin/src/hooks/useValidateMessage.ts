import { useMutation } from '@tanstack/react-query';
import { validateMessage } from '../api/testers';

export function useValidateMessage() {
  return useMutation({ mutationFn: validateMessage });
}
