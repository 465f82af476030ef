import { useMutation } from '@tanstack/react-query';
import { testLocation } from './location-test-api';

/** The location test as a mutation: `mutate(message)` with the trimmed text. */
export function useLocationTest() {
  return useMutation({ mutationFn: testLocation });
}
