import {
  type EndpointAnswer,
  type EndpointDefinition,
  type EndpointRequest,
  endpointKey,
  endpointPath,
} from '@sprout/contracts';
import {
  type QueryClient,
  type UseMutationOptions,
  mutationOptions,
  queryOptions,
} from '@tanstack/react-query';
import { ApiError, type CallOptions, callEndpoint } from './client';

// Queries and mutations derived from the contract table: a page names the endpoint and its request,
// the key, the call and the answer's type follow from the entry. Retries, staleness and refetching
// stay where the QueryClient is built (createQueryClient).

/** `useQuery(endpointQuery(api.users.detail, { params: { id } }))`: key, call and answer from the entry. */
export function endpointQuery<D extends EndpointDefinition>(
  definition: D,
  request: EndpointRequest<D>,
  options?: CallOptions,
) {
  return queryOptions({
    queryKey: endpointKey(definition, request),
    queryFn: (): Promise<EndpointAnswer<D>> => callEndpoint(definition, request, options),
  });
}

export interface EndpointMutationOptions<D extends EndpointDefinition, TContext = unknown> extends Omit<
  UseMutationOptions<EndpointAnswer<D>, Error, EndpointRequest<D>, TContext>,
  'mutationFn'
> {
  /**
   * The error's message on any failure: an error answer stays an ApiError (its status and the
   * server's body kept) with this message; no answer at all becomes an Error with this message.
   */
  failureMessage?: string;
}

/** `useMutation(endpointMutation(api.models.setLive, { onSuccess }))`; `mutate({ params: { id } })`. */
export function endpointMutation<D extends EndpointDefinition, TContext = unknown>(
  definition: D,
  options: EndpointMutationOptions<D, TContext> = {},
) {
  const { failureMessage, ...rest } = options;
  return mutationOptions<EndpointAnswer<D>, Error, EndpointRequest<D>, TContext>({
    ...rest,
    mutationFn: async (request) => {
      try {
        return await callEndpoint(definition, request, { failureMessage });
      } catch (error) {
        if (failureMessage === undefined || error instanceof ApiError) throw error;
        throw new Error(failureMessage, { cause: error });
      }
    },
  });
}

/**
 * Marks every query of the endpoint stale (whatever its query string), or of one resource when
 * `params` are given: the key's first element is the path.
 */
export function invalidateEndpoint<D extends EndpointDefinition>(
  queryClient: QueryClient,
  definition: D,
  ...params: EndpointRequest<D> extends { params: infer P } ? [params: P] : []
): Promise<void> {
  return queryClient.invalidateQueries({
    queryKey: [endpointPath(definition, params[0] as Record<string, unknown> | undefined)],
  });
}
