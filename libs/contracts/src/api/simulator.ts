import { z } from 'zod';
import type { IsoDateTime, MessageDirectionValue } from './common';
import type { UserProfileDto } from './users';

/** One test user (GET /api/simulator/test-users answers an array). */
export interface TestUserDto {
  id: string;
  testUserName: string;
  testUserModel: string | null;
  totalMessages: number;
  isActive: boolean;
  phoneNumber: string;
  createdAt: IsoDateTime;
}

/** POST /api/simulator/test-user */
export const CreateTestUserRequest = z.object({
  testUserName: z.string().trim().min(1, { error: 'Please enter a test user name' }).max(100),
  testUserModel: z.string().trim().max(100).optional().nullable(),
});
export type CreateTestUserRequest = z.output<typeof CreateTestUserRequest>;

export interface CreateTestUserResponse {
  id: string;
  testUserName: string;
}

export interface SimulatorMessage {
  id: string;
  direction: MessageDirectionValue;
  content: string;
  imageUrl: string | null;
  createdAt: IsoDateTime;
  tokenUsage: number;
  cost: number;
}

export interface SimulatorModelUsage {
  modelName: string;
  messageCount: number;
  totalTokens: number;
  totalCost: number;
}

export interface SimulatorAnalytics {
  totalMessages: number;
  totalTokens: number;
  totalCost: number;
  averageTokensPerMessage: number;
  primaryModel: string | null;
  modelUsage: SimulatorModelUsage[];
}

/** GET /api/simulator/user/{id}/conversation */
export interface SimulatorConversationResponse {
  user: TestUserDto;
  messages: SimulatorMessage[];
  analytics: SimulatorAnalytics;
  /** `preferences` is shown as Topics. */
  userProfile: UserProfileDto;
}

/** POST /api/simulator/message */
export const SimulatorMessageRequest = z
  .object({
    userId: z.uuid({ error: 'Please select a user' }),
    messageContent: z.string().max(1600).optional().default(''),
    imageUrl: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional()
      .nullable(),
    contentType: z.string().trim().max(100).optional().nullable(),
  })
  .refine((v) => v.messageContent.trim() !== '' || (v.imageUrl ?? '') !== '', {
    error: 'Please select a user and enter a message or image URL',
  });
export type SimulatorMessageRequest = z.output<typeof SimulatorMessageRequest>;

export interface SimulatorMessageResponse {
  /** Milliseconds from the inbound message to the stored reply. */
  responseTime: number;
  tokensUsed: number;
  cost: number;
  reply: SimulatorMessage | null;
}
