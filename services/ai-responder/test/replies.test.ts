import { Conversation, LlmCall, Message, User } from '@sprout/domain';
import { JobQueues, findFreePort } from '@sprout/platform';
import { type TestDatabase, type TestRedis, createTestDatabase, createTestRedis } from '@sprout/testing';
import { createApp } from '../src/app';
import { replyIdFor } from '../src/replies/reply-id';
import { RepliesService } from '../src/replies/replies.service';

const eventually = async <T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('ai-responder replies', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let responder: Awaited<ReturnType<typeof createApp>>;
  let counter = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    responder = await createApp({
      databaseUrl: db.url,
      redisUrl: redis.url,
      bullmqPrefix: redis.prefix,
      host: '127.0.0.1',
      port: await findFreePort(),
      logLevel: 'silent',
    });
  });
  afterAll(async () => {
    await responder?.close();
    await redis?.cleanup();
    await db?.drop();
  });

  const insertInbound = async (options: { optedOut?: boolean; isTestUser?: boolean } = {}) => {
    counter += 1;
    const users = db.dataSource.getRepository(User);
    const user = await users.save(
      users.create({
        phoneNumber: `+1971555${String(counter).padStart(4, '0')}`,
        optedOut: options.optedOut ?? false,
        isTestUser: options.isTestUser ?? false,
      }),
    );
    const now = new Date();
    const conversation = await db.dataSource.getRepository(Conversation).save({
      userId: user.id,
      startedAt: now,
      lastMessageAt: now,
      messageCount: 1,
      isTestUser: user.isTestUser,
    });
    const inbound = await db.dataSource.getRepository(Message).save({
      userId: user.id,
      conversationId: conversation.id,
      direction: 'inbound' as const,
      content: 'When should I plant tomatoes?',
      status: 'received' as const,
      providerSid: `SM${String(counter).padStart(32, '0')}`,
      isTestUser: user.isTestUser,
    });
    return { user, conversation, inbound };
  };

  it('answers an inbound message with one queued reply and enqueues it for sending', async () => {
    const { inbound, conversation, user } = await insertInbound();
    const queues = responder.app.get(JobQueues);
    await queues.enqueue('sms.inbound', { messageId: inbound.id });

    const replyId = replyIdFor(inbound.id);
    const reply = await eventually(
      () =>
        db.dataSource
          .getRepository(Message)
          .findOneBy({ id: replyId })
          .then((m) => m ?? undefined),
      'the reply',
    );
    expect(reply).toMatchObject({
      direction: 'outbound',
      status: 'queued',
      kind: 'reply',
      conversationId: conversation.id,
      userId: user.id,
      modelUsed: 'offline-advisor',
    });
    expect(reply.content).toContain('Sprout');
    expect(reply.segments).toBeLessThanOrEqual(3);
    expect(await queues.queue('sms.outbound').getJob(`outbound-${replyId}`)).toBeDefined();
    expect(await db.dataSource.getRepository(LlmCall).countBy({ messageId: replyId })).toBe(1);
    const touched = await db.dataSource.getRepository(Conversation).findOneByOrFail({ id: conversation.id });
    expect(touched.messageCount).toBe(2);
  });

  it('writes one reply when the same inbound is processed twice, even at once', async () => {
    const { inbound } = await insertInbound();
    const service = responder.app.get(RepliesService);
    const outcomes = await Promise.all([service.reply(inbound.id), service.reply(inbound.id)]);
    expect(outcomes.filter((o) => o.outcome === 'replied')).toHaveLength(1);
    expect(outcomes.map((o) => o.replyMessageId)).toEqual([replyIdFor(inbound.id), replyIdFor(inbound.id)]);
    expect(await service.reply(inbound.id)).toEqual({
      outcome: 'already-replied',
      replyMessageId: replyIdFor(inbound.id),
    });
    const replies = await db.dataSource
      .getRepository(Message)
      .countBy({ conversationId: inbound.conversationId, direction: 'outbound' });
    expect(replies).toBe(1);
    expect(await db.dataSource.getRepository(LlmCall).countBy({ messageId: replyIdFor(inbound.id) })).toBe(1);
  });

  it('does not answer an opted-out user', async () => {
    const { inbound } = await insertInbound({ optedOut: true });
    expect(await responder.app.get(RepliesService).reply(inbound.id)).toEqual({
      outcome: 'opted-out',
      replyMessageId: null,
    });
    expect(await db.dataSource.getRepository(Message).countBy({ id: replyIdFor(inbound.id) })).toBe(0);
  });

  it('fails a job with a bad payload at once, without retries', async () => {
    const queue = responder.app.get(JobQueues).queue('sms.inbound');
    // Written around JobQueues on purpose: a producer that skipped the schema.
    const job = await queue.add(
      'sms.inbound',
      { messageId: 'not-a-uuid' },
      { attempts: 5, jobId: 'bad-payload' },
    );
    const failed = await eventually(
      async () => ((await job.getState()) === 'failed' ? queue.getJob('bad-payload') : undefined),
      'the failed job',
    );
    expect(failed?.attemptsMade).toBe(1);
    expect(failed?.failedReason).toContain('Invalid sms.inbound payload');
  });
});
