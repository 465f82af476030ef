import { type EndpointDefinition, type EndpointRequest, api } from '@sprout/contracts';
import { callEndpoint, endpointMutation, endpointQuery, invalidateEndpoint } from '@sprout/ui';
import { mutationOptions, type QueryClient } from '@tanstack/react-query';
import { modelTexts } from './texts';

/** The visible models (removed ones are hidden). */
export const modelsQuery = endpointQuery(api.models.all, {}, { failureMessage: modelTexts.loadFailed });

/** Usage per model (real or test users', as Test Data Mode says), today's spend and the limit. */
export const modelStatsQuery = (showTestData: boolean) =>
  endpointQuery(
    api.models.stats,
    { query: { showTestData } },
    { failureMessage: 'Failed to fetch model stats' },
  );

/** The provider's model names, loaded only once `wanted` (the name field gained focus). */
export const openAiModelsQuery = (wanted: boolean) => ({
  ...endpointQuery(api.models.openAiModels, {}, { failureMessage: 'Failed to fetch OpenAI models' }),
  enabled: wanted,
});

/** After any change the list of models is read again, and the usage and limit. */
const refreshModels = (queryClient: QueryClient) =>
  Promise.all([
    invalidateEndpoint(queryClient, api.models.all),
    invalidateEndpoint(queryClient, api.models.stats),
  ]);

/** Add, update, set live or fallback, remove, spending limit: each refreshes the models. */
export const modelMutation = <D extends EndpointDefinition>(queryClient: QueryClient, definition: D) =>
  endpointMutation(definition, { onSuccess: () => refreshModels(queryClient) });

type ModelChanges = { id: string; changes: EndpointRequest<typeof api.models.update>['body'] };

/**
 * Save Changes: every model's changed fields, one request each. Answers the ids that failed with
 * their errors; the list is read again either way.
 */
export const saveAllModelsMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: async (all: ModelChanges[]) => {
      const results = await Promise.allSettled(
        all.map(({ id, changes }) => callEndpoint(api.models.update, { params: { id }, body: changes })),
      );
      return all.flatMap(({ id }, i) => {
        const result = results[i];
        return result?.status === 'rejected' ? [{ id, error: result.reason as unknown }] : [];
      });
    },
    onSettled: () => refreshModels(queryClient),
  });
