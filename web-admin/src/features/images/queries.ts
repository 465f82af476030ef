import { api } from '@sprout/contracts';
import { endpointMutation, endpointQuery, invalidateEndpoint } from '@sprout/ui';
import type { QueryClient } from '@tanstack/react-query';

/** Polling: image messages every 10 s, image stats every 30 s. */
const IMAGE_MESSAGES_REFRESH_MS = 10_000;
const IMAGE_STATS_REFRESH_MS = 30_000;

export const imageMessagesQuery = {
  ...endpointQuery(api.images.messages, {}),
  refetchInterval: IMAGE_MESSAGES_REFRESH_MS,
};

export const imageStatsQuery = {
  ...endpointQuery(api.images.stats, {}),
  refetchInterval: IMAGE_STATS_REFRESH_MS,
};

/** A processing test records a message: both lists are read again afterwards. */
export const imageProcessingTestMutation = (queryClient: QueryClient) =>
  endpointMutation(api.images.processingTest, {
    onSettled: () =>
      Promise.all([
        invalidateEndpoint(queryClient, api.images.messages),
        invalidateEndpoint(queryClient, api.images.stats),
      ]),
  });
