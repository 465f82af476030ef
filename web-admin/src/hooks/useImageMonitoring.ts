import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getImageMessages, getImageStats, testImageProcessing, testImageValidation } from '../api/images';
import { QueryKeys } from '../query-keys';

/** Spec 001 §9: image messages every 10 s, image stats every 30 s. */
export const IMAGE_MESSAGES_REFRESH_MS = 10_000;
export const IMAGE_STATS_REFRESH_MS = 30_000;

export function useImageMessages() {
  return useQuery({
    queryKey: QueryKeys.imageMessages,
    queryFn: getImageMessages,
    refetchInterval: IMAGE_MESSAGES_REFRESH_MS,
  });
}

export function useImageStats() {
  return useQuery({
    queryKey: QueryKeys.imageStats,
    queryFn: getImageStats,
    refetchInterval: IMAGE_STATS_REFRESH_MS,
  });
}

/** A processing test records a message: both lists are read again afterwards. */
export function useImageProcessingTest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: testImageProcessing,
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: QueryKeys.imageMessages }),
        client.invalidateQueries({ queryKey: QueryKeys.imageStats }),
      ]),
  });
}

export function useImageValidationTest() {
  return useMutation({ mutationFn: testImageValidation });
}
