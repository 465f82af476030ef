import { type AuthStatusResponse, api } from '@sprout/contracts';
import { ApiError, callEndpoint, endpointMutation, endpointQuery, invalidateEndpoint } from '@sprout/ui';
import { type QueryClient, queryOptions } from '@tanstack/react-query';

/** The session's admin, or `authenticated: false` (a 401 answer means the same). */
export const authStatusQuery = queryOptions({
  queryKey: endpointQuery(api.auth.status, {}).queryKey,
  queryFn: async (): Promise<AuthStatusResponse> => {
    try {
      return await callEndpoint(api.auth.status, {});
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return { authenticated: false, user: null };
      throw error;
    }
  },
});

export const loginMutation = (queryClient: QueryClient) =>
  endpointMutation(api.auth.login, { onSuccess: () => invalidateEndpoint(queryClient, api.auth.status) });

// Nothing fetched for this admin may outlive the session.
export const logoutMutation = (queryClient: QueryClient) =>
  endpointMutation(api.auth.logout, { onSettled: () => queryClient.clear() });
