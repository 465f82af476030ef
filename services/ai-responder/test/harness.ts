// Test harness of the ai-responder: a real Postgres database and Redis prefix per test file, the
// service itself (optionally pointed at the fake OpenAI server), and inbound messages recorded by
// the message writer, as sms-gateway and the simulator record them.
import {
  Conversation,
  DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS,
  type InboundConsent,
  LlmCall,
  Message,
  type MessageLocationHint,
  type MessageMedia,
  User,
  recordInbound,
  replyIdFor,
} from '@sprout/domain';
import { findFreePort } from '@sprout/platform';
import {
  FakeOpenAI,
  type TestDatabase,
  type TestRedis,
  createTestDatabase,
  createTestRedis,
} from '@sprout/testing';
import { createApp } from '../src/app';
import { type AiResponderConfig } from '../src/config';
import { PipelineService } from '../src/pipeline/pipeline.service';

export type Responder = Awaited<ReturnType<typeof createApp>>;

export interface Harness {
  db: TestDatabase;
  redis: TestRedis;
  openai: FakeOpenAI | undefined;
  responder: Responder;
  /** Another responder process on the same database and queues. */
  startResponder(overrides?: Partial<AiResponderConfig>): Promise<Responder>;
  close(): Promise<void>;
}

/** Starts the service; with `openai` the fake OpenAI server answers, else no key (offline advisor). */
export const startHarness = async (
  options: { openai?: boolean; config?: Partial<AiResponderConfig> } = {},
): Promise<Harness> => {
  const db = await createTestDatabase();
  const redis = await createTestRedis();
  const openai = options.openai ? await FakeOpenAI.start() : undefined;
  const started: Responder[] = [];
  const startResponder = async (overrides: Partial<AiResponderConfig> = {}): Promise<Responder> => {
    const responder = await createApp(
      {
        databaseUrl: db.url,
        redisUrl: redis.url,
        bullmqPrefix: redis.prefix,
        host: '127.0.0.1',
        port: await findFreePort(),
        logLevel: 'silent',
        openaiApiKey: openai?.apiKey,
        openaiBaseUrl: openai?.baseURL,
        ...options.config,
        ...overrides,
      },
      {},
    );
    started.push(responder);
    return responder;
  };
  const responder = await startResponder();
  return {
    db,
    redis,
    openai,
    responder,
    startResponder,
    close: async () => {
      for (const app of started) await app.close().catch(() => undefined);
      await openai?.close();
      await redis.cleanup();
      await db.drop();
    },
  };
};

let phoneCounter = 0;
/** A fresh E.164 number per call (unique within the test file's database). */
export const newPhone = (): string => {
  phoneCounter += 1;
  return `+1503555${String(phoneCounter).padStart(4, '0')}`;
};

export interface InboundOptions {
  phone?: string;
  media?: MessageMedia[];
  /** Twilio's FromZip / FromCity / FromState / FromCountry, as sms-gateway keeps them. */
  locationHint?: MessageLocationHint;
  /** When the message arrived (default now). */
  at?: Date;
  isTestUser?: boolean;
  /** A compliance keyword, applied and confirmed with the message (as the gateways do). */
  consent?: InboundConsent;
  /** Owed an answer (an awaiting_replies row), as the webhook stores a text; default true. */
  awaitingReply?: boolean;
}

/** Records an inbound SMS as sms-gateway does: user found or created, conversation continued or opened. */
export const storeInbound = async (
  db: TestDatabase,
  content: string,
  options: InboundOptions = {},
): Promise<Message> => {
  const record = await recordInbound(db.dataSource, {
    from: { phoneNumber: options.phone ?? newPhone(), isTestUser: options.isTestUser ?? false },
    content,
    media: options.media ?? [],
    locationHint: options.locationHint ?? null,
    consent: options.consent ?? null,
    awaitingReply: options.awaitingReply ?? true,
    idleTimeoutMs: DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS,
    ...(options.at ? { at: options.at } : {}),
  });
  if (record === null) throw new Error('The inbound message was not recorded');
  return db.dataSource.getRepository(Message).findOneByOrFail({ id: record.messageId });
};

export interface Exchange {
  inbound: Message;
  reply: Message;
  user: User;
  conversation: Conversation;
  calls: LlmCall[];
}

/** Stores an inbound message, runs the pipeline on it directly, and reads back what it wrote. */
export const exchange = async (
  harness: Harness,
  content: string,
  options: InboundOptions = {},
): Promise<Exchange> => {
  const inbound = await storeInbound(harness.db, content, options);
  const result = await harness.responder.app.get(PipelineService).reply(inbound.id);
  if (result.replyMessageId === null) throw new Error(`No reply: ${result.outcome}`);
  return readExchange(harness, inbound);
};

const readExchange = async (harness: Harness, inbound: Message): Promise<Exchange> => {
  const ds = harness.db.dataSource;
  const replyId = replyIdFor(inbound.id);
  return {
    inbound: await ds.getRepository(Message).findOneByOrFail({ id: inbound.id }),
    reply: await ds.getRepository(Message).findOneByOrFail({ id: replyId }),
    user: await ds.getRepository(User).findOneByOrFail({ id: inbound.userId }),
    conversation: await ds.getRepository(Conversation).findOneByOrFail({ id: inbound.conversationId }),
    calls: await ds.getRepository(LlmCall).find({
      where: { conversationId: inbound.conversationId },
      order: { createdAt: 'ASC' },
    }),
  };
};

export { eventually } from '@sprout/testing';
