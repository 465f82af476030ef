import { apiJson, fetchJson } from '@sprout/ui';
import type {
  ActionResponse,
  CreateTestUserResponse,
  ModelDto,
  SimulatorConversationResponse,
  SimulatorMessageResponse,
  TestUserDto,
} from '@sprout/contracts';

/** The conversation simulator's calls (spec 001 §7). */

export function getTestUsers(): Promise<TestUserDto[]> {
  return fetchJson<TestUserDto[]>('/api/simulator/test-users', 'Failed to fetch test users');
}

export function getSimulatorConversation(userId: string): Promise<SimulatorConversationResponse> {
  return fetchJson<SimulatorConversationResponse>(
    `/api/simulator/user/${encodeURIComponent(userId)}/conversation`,
    'Failed to fetch conversation',
  );
}

export interface CreateTestUserInput {
  testUserName: string;
  /** Omitted: the user is answered by the live model. */
  testUserModel?: string;
}

export function createTestUser(input: CreateTestUserInput): Promise<CreateTestUserResponse> {
  return apiJson<CreateTestUserResponse>('POST', '/api/simulator/test-user', input);
}

export function deleteTestUser(userId: string): Promise<ActionResponse> {
  return apiJson<ActionResponse>('DELETE', `/api/simulator/test-user/${encodeURIComponent(userId)}`);
}

export interface SimulatorMessageInput {
  userId: string;
  messageContent: string;
  imageUrl?: string;
  contentType?: string;
}

export function sendSimulatorMessage(input: SimulatorMessageInput): Promise<SimulatorMessageResponse> {
  return apiJson<SimulatorMessageResponse>('POST', '/api/simulator/message', input);
}

/** The configured AI models (Model Management); the simulator offers the active, visible ones. */
export function getModels(): Promise<ModelDto[]> {
  return fetchJson<ModelDto[]>('/api/admin/models/all', 'Failed to fetch models');
}
