import {
  Conversation,
  Message,
  User,
  inboundToAnswer,
  lockReplyRecipient,
  messageToSend,
  outboundBySid,
  recordInbound,
  recordOutbound,
  replyIdFor,
  updateStatusIfStill,
  updateUnsent,
} from '@sprout/domain';
import { useTestDatabase } from './test-database';

// The message path reads and writes as prepared statements on pg: they must return what TypeORM
// hydrates for the same rows (money as numbers, jsonb and arrays parsed, dates) and write alike.
describe('message path reads', () => {
  const ds = useTestDatabase();

  const seed = async (phoneNumber: string, providerSid: string) => {
    const inbound = await recordInbound(ds(), {
      from: { phoneNumber },
      content: 'my tomatoes have spots',
      idleTimeoutMs: 60_000,
      providerSid,
      media: [{ url: 'https://example.test/leaf.jpg', contentType: 'image/jpeg' }],
      locationHint: { zip: '97201' },
    });
    if (inbound === null) throw new Error('not recorded');
    await ds()
      .getRepository(User)
      .update({ id: inbound.userId }, { profile: { experienceLevel: 'beginner' }, zipCode: '97201' });
    const reply = await recordOutbound(ds(), {
      id: replyIdFor(inbound.messageId),
      userId: inbound.userId,
      conversationId: inbound.conversationId,
      inReplyTo: inbound.messageId,
      content: 'Remove the spotted leaves.',
      kind: 'reply',
      encoding: 'GSM-7',
      segments: 1,
      tokens: 42,
      cost: 0.001234,
      modelUsed: 'gpt-test',
      answered: { sentiment: 'negative', topics: ['disease', 'tomatoes'] },
      conversation: { topics: ['disease'] },
    });
    if (reply === null) throw new Error('not recorded');
    return { inbound, replyId: reply.id };
  };

  it('reads messages, users and conversations as TypeORM hydrates them', async () => {
    const { inbound, replyId } = await seed('+15035557001', 'SM-in-prepared');
    const typeorm = async (id: string) =>
      ds()
        .getRepository(Message)
        .findOneOrFail({ where: { id }, relations: { user: true } });

    const answer = await inboundToAnswer(ds(), inbound.messageId);
    expect(answer).toEqual({ inbound: await typeorm(inbound.messageId), replied: true, replyId });
    expect(answer?.inbound.topics).toEqual(['disease', 'tomatoes']);

    const toSend = await messageToSend(ds(), replyId);
    expect(toSend).toEqual(await typeorm(replyId));
    expect(toSend?.cost).toBe(0.001234);

    await ds().getRepository(Message).update({ id: replyId }, { providerSid: 'SM-out-prepared' });
    const { user: _user, ...sent } = await typeorm(replyId);
    expect(await outboundBySid(ds(), 'SM-out-prepared')).toEqual(sent);
    expect(await outboundBySid(ds(), 'SM-in-prepared')).toBeNull();
    expect(await messageToSend(ds(), '00000000-0000-4000-8000-000000000000')).toBeNull();

    const locked = await ds().transaction((manager) =>
      lockReplyRecipient(manager, {
        inbound: { id: inbound.messageId, userId: inbound.userId, conversationId: inbound.conversationId },
        sentiment: 'positive',
        window: 5,
        withSurvey: true,
      }),
    );
    expect(locked).toEqual({
      user: await ds().getRepository(User).findOneByOrFail({ id: inbound.userId }),
      conversation: await ds().getRepository(Conversation).findOneByOrFail({ id: inbound.conversationId }),
      survey: null,
      // The inbound's sentiment as if stored; the reply is outbound, so not a mood.
      moods: {
        conversation: ['positive'],
        recent: [{ sentiment: 'positive', content: 'my tomatoes have spots' }],
      },
    });
  });

  it('writes a status only while it is still the one read, and unsent changes only while unsent', async () => {
    const { inbound } = await seed('+15035557002', 'SM-in-cas');
    const reply = await recordOutbound(ds(), {
      userId: inbound.userId,
      conversationId: inbound.conversationId,
      content: 'A tip.',
      kind: 'reply',
      encoding: 'GSM-7',
      segments: 1,
    });
    if (reply === null) throw new Error('not recorded');
    const read = () => ds().getRepository(Message).findOneByOrFail({ id: reply.id });
    const before = await read();

    await updateUnsent(ds(), reply.id, { status: 'sending' });
    expect((await read()).status).toBe('sending');
    await ds().getRepository(Message).update({ id: reply.id }, { providerSid: 'SM-out-cas', status: 'sent' });
    await updateUnsent(ds(), reply.id, { status: 'queued' });
    expect((await read()).status).toBe('sent');

    const deliveredAt = new Date('2026-11-27T12:00:00Z');
    expect(await updateStatusIfStill(ds(), { id: reply.id, status: 'queued' }, { status: 'delivered' })).toBe(
      false,
    );
    expect(
      await updateStatusIfStill(ds(), { id: reply.id, status: 'sent' }, { status: 'delivered', deliveredAt }),
    ).toBe(true);
    const after = await read();
    expect(after).toMatchObject({ status: 'delivered', deliveredAt });
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
  });
});
