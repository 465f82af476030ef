import { api, endpointPath } from '@sprout/contracts';
import { callEndpoint, endpointMutation, endpointQuery, invalidateEndpoint } from '@sprout/ui';
import type { QueryClient } from '@tanstack/react-query';

/** The simulator's test users list refreshes every 5 s. */
const TEST_USERS_REFRESH_MS = 5_000;
/** The selected test user's conversation refreshes every 2 s. */
const SIMULATOR_CONVERSATION_REFRESH_MS = 2_000;

export const testUsersQuery = {
  ...endpointQuery(api.simulator.testUsers, {}, { failureMessage: 'Failed to fetch test users' }),
  refetchInterval: TEST_USERS_REFRESH_MS,
};

/**
 * Conversation requests on the wire, by user: a delete waits for these (conversationRequestsSettled),
 * since a request already sent reaches the server whatever the page shows next.
 */
const conversationRequests = new Map<string, Set<Promise<unknown>>>();

function tracked<T>(userId: string, request: Promise<T>): Promise<T> {
  const pending = conversationRequests.get(userId) ?? new Set<Promise<unknown>>();
  conversationRequests.set(userId, pending);
  pending.add(request);
  const done = () => {
    pending.delete(request);
    if (pending.size === 0) conversationRequests.delete(userId);
  };
  request.then(done, done);
  return request;
}

/** A test user's conversation, analytics and profile; nothing is fetched without a user. */
export const simulatorConversationQuery = (userId: string | null) => {
  const request = { params: { id: userId ?? '' } };
  const options = { failureMessage: 'Failed to fetch conversation' };
  return {
    ...endpointQuery(api.simulator.conversation, request, options),
    queryFn: () => tracked(userId ?? '', callEndpoint(api.simulator.conversation, request, options)),
    enabled: userId !== null,
    refetchInterval: SIMULATOR_CONVERSATION_REFRESH_MS,
  };
};

/**
 * Sends a test user's message and waits for the reply. The conversation reloads afterwards, also
 * after a failure: the server keeps the message even when the reply is late.
 */
export const sendSimulatorMessageMutation = (queryClient: QueryClient) =>
  endpointMutation(api.simulator.sendMessage, {
    onSettled: (_answer, _error, { body }) =>
      Promise.all([
        invalidateEndpoint(queryClient, api.simulator.conversation, { id: body.userId }),
        invalidateEndpoint(queryClient, api.simulator.testUsers),
      ]),
  });

/** Without `testUserModel` the user is answered by the live model. */
export const createTestUserMutation = (queryClient: QueryClient) =>
  endpointMutation(api.simulator.createTestUser, {
    onSuccess: () => invalidateEndpoint(queryClient, api.simulator.testUsers),
  });

/**
 * Resolves once no request for a user's conversation is on the wire. A delete waits for it: a poll
 * sent just before would otherwise reach the server after the user is gone and fail.
 */
export async function conversationRequestsSettled(userId: string): Promise<void> {
  // A macrotask first, so the cleared selection renders and its poll stops.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await Promise.allSettled([...(conversationRequests.get(userId) ?? [])]);
}

export const deleteTestUserMutation = (queryClient: QueryClient) =>
  endpointMutation(api.simulator.deleteTestUser, {
    onSuccess: (_answer, { params }) => {
      queryClient.removeQueries({ queryKey: [endpointPath(api.simulator.conversation, params)] });
      return invalidateEndpoint(queryClient, api.simulator.testUsers);
    },
  });
