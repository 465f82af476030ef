import { useMutation } from '@tanstack/react-query';
import { testLocation } from '../api/location';

export function useTestLocation() {
  return useMutation({ mutationFn: testLocation });
}
