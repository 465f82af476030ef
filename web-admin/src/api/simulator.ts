import { callEndpoint } from '@sprout/ui';
import {
  type ActionResponse,
  type CreateTestUserResponse,
  type EndpointRequest,
  type SimulatorConversationResponse,
  type SimulatorMessageResponse,
  type TestUserDto,
  api,
} from '@sprout/contracts';

/** The conversation simulator's calls (spec 001 §7). */

export function getTestUsers(): Promise<TestUserDto[]> {
  return callEndpoint(api.simulator.testUsers, {}, { failureMessage: 'Failed to fetch test users' });
}

export function getSimulatorConversation(userId: string): Promise<SimulatorConversationResponse> {
  return callEndpoint(
    api.simulator.conversation,
    { params: { id: userId } },
    { failureMessage: 'Failed to fetch conversation' },
  );
}

/** Without `testUserModel` the user is answered by the live model. */
export function createTestUser(
  body: EndpointRequest<typeof api.simulator.createTestUser>['body'],
): Promise<CreateTestUserResponse> {
  return callEndpoint(api.simulator.createTestUser, { body });
}

export function deleteTestUser(userId: string): Promise<ActionResponse> {
  return callEndpoint(api.simulator.deleteTestUser, { params: { id: userId } });
}

export function sendSimulatorMessage(
  body: EndpointRequest<typeof api.simulator.sendMessage>['body'],
): Promise<SimulatorMessageResponse> {
  return callEndpoint(api.simulator.sendMessage, { body });
}
