import { Conversation, Message, User } from '@sprout/domain';
import { findFreePort } from '@sprout/platform';
import {
  FakeTwilio,
  type FakeTwilioOptions,
  type TestDatabase,
  type TestRedis,
  createTestDatabase,
  createTestRedis,
} from '@sprout/testing';
import type { DataSource } from 'typeorm';
import { createApp } from '../src/app';
import type { SmsGatewayConfig } from '../src/config';

export interface GatewayHarness {
  db: TestDatabase;
  redis: TestRedis;
  twilio: FakeTwilio;
  gateway: Awaited<ReturnType<typeof createApp>>;
  /** The public URL the gateway is reached at (PUBLIC_BASE_URL). */
  baseUrl: string;
  close(): Promise<void>;
}

/** sms-gateway on its own database, Redis prefix and fake Twilio, listening on a free port. */
export const startGateway = async (
  twilioOptions: FakeTwilioOptions = {},
  overrides: Partial<SmsGatewayConfig> = {},
): Promise<GatewayHarness> => {
  const db = await createTestDatabase();
  const redis = await createTestRedis();
  const twilio = await FakeTwilio.start(twilioOptions);
  const port = await findFreePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const gateway = await createApp({
    databaseUrl: db.url,
    redisUrl: redis.url,
    bullmqPrefix: redis.prefix,
    host: '127.0.0.1',
    port,
    publicBaseUrl: baseUrl,
    twilioApiBaseUrl: twilio.url,
    twilioAccountSid: twilio.accountSid,
    twilioAuthToken: twilio.authToken,
    logLevel: 'silent',
    // Unpaced unless a test paces on purpose (a long code's 1 segment/s would slow every test).
    smsLongCodeRate: 10_000,
    ...overrides,
  });
  const harness: GatewayHarness = {
    db,
    redis,
    twilio,
    gateway,
    baseUrl,
    // The gateway a test put in place of the first one (restarted on other settings), if any.
    close: async () => {
      await harness.gateway.close();
      await twilio.close();
      await redis.cleanup();
      await db.drop();
    },
  };
  return harness;
};

let phoneCounter = 0;
/** A distinct valid US number per call (555-01xx is reserved for fiction). */
export const nextPhone = (): string => `+1503555${String(100 + (phoneCounter++ % 100)).padStart(4, '0')}`;

/** A user, an open conversation and one queued outbound message, as ai-responder would leave them. */
export const insertQueuedReply = async (
  dataSource: DataSource,
  options: { phoneNumber: string; isTestUser?: boolean; content?: string },
): Promise<Message> => {
  const users = dataSource.getRepository(User);
  const user = await users.save(
    users.create({ phoneNumber: options.phoneNumber, isTestUser: options.isTestUser ?? false }),
  );
  const now = new Date();
  const conversations = dataSource.getRepository(Conversation);
  const conversation = await conversations.save(
    conversations.create({
      userId: user.id,
      startedAt: now,
      lastMessageAt: now,
      isTestUser: user.isTestUser,
    }),
  );
  const messages = dataSource.getRepository(Message);
  return messages.save(
    messages.create({
      userId: user.id,
      conversationId: conversation.id,
      direction: 'outbound',
      content: options.content ?? 'Water tomatoes deeply twice a week.',
      status: 'queued',
      kind: 'reply',
      isTestUser: user.isTestUser,
    }),
  );
};

export { countersOf, eventually } from '@sprout/testing';
