import { api, endpointPath } from '@sprout/contracts';
import { endpointMutation, endpointQuery, invalidateEndpoint } from '@sprout/ui';
import type { QueryClient } from '@tanstack/react-query';

/** The simulator's test users list refreshes every 5 s. */
const TEST_USERS_REFRESH_MS = 5_000;
/** The selected test user's conversation refreshes every 2 s. */
const SIMULATOR_CONVERSATION_REFRESH_MS = 2_000;

export const testUsersQuery = {
  ...endpointQuery(api.simulator.testUsers, {}, { failureMessage: 'Failed to fetch test users' }),
  refetchInterval: TEST_USERS_REFRESH_MS,
};

/** A test user's conversation, analytics and profile; nothing is fetched without a user. */
export const simulatorConversationQuery = (userId: string | null) => ({
  ...endpointQuery(
    api.simulator.conversation,
    { params: { id: userId ?? '' } },
    { failureMessage: 'Failed to fetch conversation' },
  ),
  enabled: userId !== null,
  refetchInterval: SIMULATOR_CONVERSATION_REFRESH_MS,
});

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

export const deleteTestUserMutation = (queryClient: QueryClient) =>
  endpointMutation(api.simulator.deleteTestUser, {
    onSuccess: (_answer, { params }) => {
      queryClient.removeQueries({ queryKey: [endpointPath(api.simulator.conversation, params)] });
      return invalidateEndpoint(queryClient, api.simulator.testUsers);
    },
  });
