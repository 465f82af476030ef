import { z } from 'zod';
import { answer, endpoint } from '../http/endpoint';
import { UNSTORABLE_TEXT, idParams, isStorableText, textField, uuidParam } from '../http/params';
import type { ActionResponse, IsoDateTime, MessageDirectionValue } from './common';
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

/** Model names a test user may be given: letters, digits and . _ : / - ("gpt-4o-mini"). */
export const MODEL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/;
/** The content type of a simulated MMS image ("image/png"). */
export const IMAGE_CONTENT_TYPE_PATTERN = /^image\/[A-Za-z0-9.+-]+$/;

export const TEST_USER_NAME_REQUIRED = 'Please enter a test user name';
export const INVALID_TEST_USER_ID = 'Invalid test user id.';
export const SIMULATOR_MESSAGE_REQUIRED = 'Please select a user and enter a message or image URL';

const JSON_OBJECT = { error: 'The body must be a JSON object' };

/** Optional text of at most 100 characters that is blank or matches `pattern`; absent or blank is null. */
const blankOrMatching = (pattern: RegExp, error: string) =>
  textField('must be text')
    .trim()
    .max(100, { error: 'must be at most 100 characters' })
    .refine((value) => value === '' || pattern.test(value), { error })
    .nullish()
    .transform((value) => value || null);

/** POST /api/simulator/test-user */
export const CreateTestUserRequest = z.object(
  {
    // A missing name, not only a blank one, gets the screen's own prompt.
    testUserName: textField(TEST_USER_NAME_REQUIRED)
      .trim()
      .min(1, { error: TEST_USER_NAME_REQUIRED })
      .max(100, { error: 'must be at most 100 characters' }),
    /** Absent, null or blank: the user is answered by the live model. */
    testUserModel: blankOrMatching(MODEL_NAME_PATTERN, 'must be a model name such as gpt-4o-mini'),
  },
  JSON_OBJECT,
);
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
  /** What image analysis said about the picture, once done. */
  imageAnalysis?: string | null;
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
  .object(
    {
      userId: uuidParam('Please select a user'),
      messageContent: textField('must be text')
        .max(1600, { error: 'must be at most 1600 characters' })
        .optional()
        .default(''),
      imageUrl: z
        .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
        .max(2000, { error: 'must be at most 2000 characters' })
        .refine(isStorableText, { error: UNSTORABLE_TEXT })
        .nullish(),
      /** The image's content type; absent or blank: image/jpeg. */
      contentType: blankOrMatching(IMAGE_CONTENT_TYPE_PATTERN, 'must be an image type such as image/jpeg'),
    },
    JSON_OBJECT,
  )
  .refine((v) => v.messageContent.trim() !== '' || (v.imageUrl ?? '') !== '', {
    error: SIMULATOR_MESSAGE_REQUIRED,
  });
export type SimulatorMessageRequest = z.output<typeof SimulatorMessageRequest>;

export interface SimulatorMessageResponse {
  /** Milliseconds from the inbound message to the stored reply. */
  responseTime: number;
  tokensUsed: number;
  cost: number;
  reply: SimulatorMessage | null;
}

const TestUserIdParams = idParams(INVALID_TEST_USER_ID);

/** The conversation simulator: test users on reserved numbers, through the real pipeline. */
export const simulatorApi = {
  testUsers: endpoint({
    method: 'GET',
    path: '/api/simulator/test-users',
    access: 'admin',
    tag: 'conversation simulator',
    summary: 'Test users, newest first, with their message counts',
    answer: answer<TestUserDto[]>('Test users, newest first'),
  }),
  createTestUser: endpoint({
    method: 'POST',
    path: '/api/simulator/test-user',
    access: 'admin',
    tag: 'conversation simulator',
    summary: 'Create a test user on a reserved fake number (+1 555 010-xxxx)',
    body: CreateTestUserRequest,
    status: 201,
    answer: answer<CreateTestUserResponse>('The new test user'),
  }),
  deleteTestUser: endpoint({
    method: 'DELETE',
    path: '/api/simulator/test-user/:id',
    access: 'admin',
    tag: 'conversation simulator',
    summary: 'Delete a test user with their conversations (test users only)',
    params: TestUserIdParams,
    answer: answer<ActionResponse>('{ success: true }'),
  }),
  conversation: endpoint({
    method: 'GET',
    path: '/api/simulator/user/:id/conversation',
    access: 'admin',
    tag: 'conversation simulator',
    summary: "A test user's messages, analytics and learned profile",
    params: TestUserIdParams,
    answer: answer<SimulatorConversationResponse>('Messages (the newest 500), analytics and profile'),
  }),
  sendMessage: endpoint({
    method: 'POST',
    path: '/api/simulator/message',
    access: 'admin',
    tag: 'conversation simulator',
    summary: 'Send a message as a test user through the SMS pipeline and wait for the reply',
    description:
      'The message is stored like an inbound SMS and answered by the ai-responder. 504 when the reply ' +
      'takes longer than SIMULATOR_REPLY_TIMEOUT_MS (the message is kept and still answered), 502 when ' +
      'no reply could be written, 404 for a user who is not a test user.',
    body: SimulatorMessageRequest,
    answer: answer<SimulatorMessageResponse>('The reply with its response time, tokens and cost'),
  }),
} as const;
