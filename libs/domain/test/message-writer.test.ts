import {
  ConsentEvent,
  Conversation,
  Message,
  User,
  recordInbound,
  recordOutbound,
  replyIdFor,
} from '@sprout/domain';
import { HELP, START, STOP } from './consents';
import { useTestDatabase } from './test-database';

const HOUR = 60 * 60 * 1000;
const IDLE = 6 * HOUR;

describe('message writer', () => {
  let phoneCounter = 0;
  const nextPhone = () => `+1503555${String(2000 + phoneCounter++).padStart(4, '0')}`;

  const ds = useTestDatabase();
  const inbound = async (
    phone: string,
    content: string,
    extra: Partial<Parameters<typeof recordInbound>[1]> = {},
  ) => {
    const record = await recordInbound(ds(), {
      from: { phoneNumber: phone },
      content,
      idleTimeoutMs: IDLE,
      ...extra,
    });
    if (record === null) throw new Error('not recorded');
    return record;
  };
  const message = (id: string) => ds().getRepository(Message).findOneByOrFail({ id });
  const user = (id: string) => ds().getRepository(User).findOneByOrFail({ id });
  const conversation = (id: string) => ds().getRepository(Conversation).findOneByOrFail({ id });
  const endConversation = (id: string) =>
    ds().getRepository(Conversation).update({ id }, { endedAt: new Date() });

  /** Every counter of the user and their conversations equals what their messages add up to. */
  const expectCountersAgree = async (userId: string): Promise<void> => {
    const [users] = await ds().query<Record<string, unknown>[]>(
      `SELECT u.total_messages, u.total_tokens, u.total_cost::float8 AS total_cost, u.last_message_at,
              count(m.id)::int AS messages, coalesce(sum(m.token_usage), 0)::int AS tokens,
              coalesce(sum(m.cost), 0)::float8 AS cost, max(m.created_at) AS last
         FROM users u LEFT JOIN messages m ON m.user_id = u.id
        WHERE u.id = $1 GROUP BY u.id`,
      [userId],
    );
    expect(users).toBeDefined();
    expect(users?.total_messages).toBe(users?.messages);
    expect(users?.total_tokens).toBe(users?.tokens);
    expect(users?.total_cost).toBeCloseTo(Number(users?.cost), 6);
    expect(users?.last_message_at).toEqual(users?.last);
    const conversations = await ds().query<Record<string, unknown>[]>(
      `SELECT c.id, c.message_count, c.last_message_at, count(m.id)::int AS messages, max(m.created_at) AS last
         FROM conversations c LEFT JOIN messages m ON m.conversation_id = c.id
        WHERE c.user_id = $1 GROUP BY c.id`,
      [userId],
    );
    for (const c of conversations) {
      expect(c.message_count).toBe(c.messages);
      expect(c.last_message_at).toEqual(c.last);
    }
  };

  /** The admin rollups (kept by triggers at commit) agree with the tables. */
  const expectRollupsAgree = async (): Promise<void> => {
    const [row] = await ds().query<Record<string, string>[]>(
      `SELECT
         (SELECT coalesce(sum(count), 0) FROM rollup_totals WHERE metric = 'messages_inbound') AS inbound_total,
         (SELECT count(*) FROM messages WHERE direction = 'inbound') AS inbound,
         (SELECT coalesce(sum(count), 0) FROM rollup_totals WHERE metric = 'messages_reply') AS reply_total,
         (SELECT count(*) FROM messages WHERE direction = 'outbound' AND kind <> 'survey') AS replies,
         (SELECT coalesce(sum(count), 0) FROM rollup_hourly WHERE metric IN ('messages_inbound', 'messages_reply')) AS hourly,
         (SELECT coalesce(sum(count), 0) FROM rollup_totals WHERE metric = 'users') AS users_total,
         (SELECT count(*) FROM users) AS users,
         (SELECT coalesce(sum(count), 0) FROM rollup_totals WHERE metric = 'conversations') AS conversations_total,
         (SELECT count(*) FROM conversations) AS conversations`,
    );
    expect(row?.inbound_total).toBe(row?.inbound);
    expect(row?.reply_total).toBe(row?.replies);
    expect(Number(row?.hourly)).toBe(Number(row?.inbound) + Number(row?.replies));
    expect(row?.users_total).toBe(row?.users);
    expect(row?.conversations_total).toBe(row?.conversations);
  };

  describe('recordInbound', () => {
    it('creates the user on first contact, opens a conversation and counts the message', async () => {
      const phone = nextPhone();
      const record = await inbound(phone, 'When do I plant garlic?', {
        providerSid: 'SMwriter0000000000000000000000001',
        media: [{ url: 'https://media.example/1.jpg', contentType: 'image/png' }],
        locationHint: { zip: '97201', state: 'OR' },
      });
      expect(record).toMatchObject({ created: true, isTestUser: false, optedOut: false, consent: null });
      const stored = await message(record.messageId);
      expect(stored).toMatchObject({
        direction: 'inbound',
        status: 'received',
        kind: 'reply',
        providerSid: 'SMwriter0000000000000000000000001',
        imageContentType: 'image/png',
        locationHint: { zip: '97201', state: 'OR' },
        conversationId: record.conversationId,
      });
      const sender = await user(record.userId);
      expect(sender).toMatchObject({ phoneNumber: phone, totalMessages: 1, isActive: true });
      expect(sender.lastMessageAt).toEqual(stored.createdAt);
      const opened = await conversation(record.conversationId);
      expect(opened).toMatchObject({ messageCount: 1, isTestUser: false, endedAt: null });
      expect(opened.startedAt).toEqual(stored.createdAt);
      await expectCountersAgree(record.userId);
      await expectRollupsAgree();
    });

    it('continues the conversation within the idle timeout and opens a new one after it', async () => {
      const phone = nextPhone();
      const start = new Date('2025-05-01T10:00:00Z');
      const at = (ms: number) => new Date(start.getTime() + ms);
      const first = await inbound(phone, 'one', { at: start, idleTimeoutMs: HOUR });
      const second = await inbound(phone, 'two', { at: at(HOUR), idleTimeoutMs: HOUR });
      expect(second.conversationId).toBe(first.conversationId);
      const third = await inbound(phone, 'three', { at: at(2 * HOUR + 1), idleTimeoutMs: HOUR });
      expect(third.conversationId).not.toBe(first.conversationId);
      // The same gap under a longer timeout (another service's config) continues.
      const fourth = await inbound(phone, 'four', { at: at(4 * HOUR), idleTimeoutMs: 3 * HOUR });
      expect(fourth.conversationId).toBe(third.conversationId);
      expect((await conversation(first.conversationId)).messageCount).toBe(2);
      expect((await conversation(third.conversationId)).messageCount).toBe(2);
      await expectCountersAgree(first.userId);
    });

    it('opens a new conversation when the latest one has ended, even within the timeout', async () => {
      const phone = nextPhone();
      const first = await inbound(phone, 'one');
      await endConversation(first.conversationId);
      const second = await inbound(phone, 'two');
      expect(second.conversationId).not.toBe(first.conversationId);
      await expectCountersAgree(first.userId);
    });

    it('records a repeated providerSid once, however many deliveries race', async () => {
      const phone = nextPhone();
      const sid = 'SMwriter0000000000000000000000002';
      const records = await Promise.all(
        Array.from({ length: 5 }, () => inbound(phone, 'Is it too late for peas?', { providerSid: sid })),
      );
      expect(records.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(records.map((r) => r.messageId)).size).toBe(1);
      expect(new Set(records.map((r) => r.conversationId)).size).toBe(1);
      const userId = records[0]?.userId ?? '';
      expect(await ds().getRepository(Message).countBy({ userId })).toBe(1);
      expect(await ds().getRepository(Conversation).countBy({ userId })).toBe(1);
      await expectCountersAgree(userId);
    });

    it('creates no user for a repeated providerSid from another number, one at a time or racing', async () => {
      const first = await inbound(nextPhone(), 'Why are my tomato leaves curling?', {
        providerSid: 'SMwriter0000000000000000000000010',
      });
      const other = nextPhone();
      const again = await inbound(other, 'Why are my tomato leaves curling?', {
        providerSid: 'SMwriter0000000000000000000000010',
      });
      expect(again).toMatchObject({
        created: false,
        messageId: first.messageId,
        userId: first.userId,
        conversationId: first.conversationId,
      });
      expect(await ds().getRepository(User).countBy({ phoneNumber: other })).toBe(0);

      const phones = Array.from({ length: 5 }, nextPhone);
      const raced = await Promise.all(
        phones.map((phone) =>
          inbound(phone, 'Spacing for carrots?', { providerSid: 'SMwriter0000000000000000000000011' }),
        ),
      );
      expect(raced.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(raced.map((r) => r.messageId)).size).toBe(1);
      const [counted] = await ds().query<{ users: number }[]>(
        `SELECT count(*)::int AS users FROM users WHERE phone_number = ANY ($1)`,
        [phones],
      );
      expect(counted?.users).toBe(1);
      const [orphans] = await ds().query<{ empty: number }[]>(
        `SELECT count(*)::int AS empty FROM users u WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.user_id = u.id)`,
      );
      expect(orphans?.empty).toBe(0);
      await expectRollupsAgree();
    });

    it('keeps the sharded rollups exact under many concurrent writers', async () => {
      const [before] = await ds().query<{ inbound: string; users: string }[]>(
        `SELECT (SELECT count FROM rollup_totals WHERE metric = 'messages_inbound' AND NOT is_test_user) AS inbound,
                (SELECT count FROM rollup_totals WHERE metric = 'users' AND NOT is_test_user) AS users`,
      );
      const phones = Array.from({ length: 20 }, nextPhone);
      // 60 messages from 20 new numbers at once: the pool's connections commit side by side.
      await Promise.all(
        Array.from({ length: 60 }, (_, i) => inbound(phones[i % phones.length] ?? '', `concurrent ${i}`)),
      );
      const [after] = await ds().query<{ inbound: string; users: string; shards: number; hours: string }[]>(
        `SELECT (SELECT count FROM rollup_totals WHERE metric = 'messages_inbound' AND NOT is_test_user) AS inbound,
                (SELECT count FROM rollup_totals WHERE metric = 'users' AND NOT is_test_user) AS users,
                (SELECT count(DISTINCT shard)::int FROM rollup_total_shards WHERE metric = 'messages_inbound') AS shards,
                (SELECT sum(count) FROM rollup_hourly WHERE metric = 'messages_inbound' AND NOT is_test_user) AS hours`,
      );
      expect(Number(after?.inbound) - Number(before?.inbound)).toBe(60);
      expect(Number(after?.users) - Number(before?.users)).toBe(20);
      expect(after?.hours).toBe(after?.inbound);
      // The writes spread over more than one counter row (one per connection's shard).
      expect(after?.shards).toBeGreaterThan(1);
      await expectRollupsAgree();

      // A rebuild folds the shards into one row per metric and agrees with them.
      const totals = await ds().query('SELECT metric, is_test_user, count FROM rollup_totals ORDER BY 1, 2');
      await ds().query('SELECT rollup_rebuild()');
      expect(await ds().query('SELECT metric, is_test_user, count FROM rollup_totals ORDER BY 1, 2')).toEqual(
        totals,
      );
      const [folded] = await ds().query<{ rows: number }[]>(
        `SELECT count(*)::int AS rows FROM rollup_total_shards WHERE shard <> 0`,
      );
      expect(folded?.rows).toBe(0);
    });

    it("gives one new number's concurrent messages one user and one conversation", async () => {
      const phone = nextPhone();
      const records = await Promise.all(Array.from({ length: 6 }, (_, i) => inbound(phone, `message ${i}`)));
      expect(new Set(records.map((r) => r.userId)).size).toBe(1);
      expect(new Set(records.map((r) => r.conversationId)).size).toBe(1);
      const userId = records[0]?.userId ?? '';
      expect((await user(userId)).totalMessages).toBe(6);
      await expectCountersAgree(userId);
      await expectRollupsAgree();
    });

    it('writes as a known user by id, and as a test user only when asked to', async () => {
      const real = await inbound(nextPhone(), 'hi');
      expect(
        await recordInbound(ds(), {
          from: { userId: real.userId, testUserOnly: true },
          content: 'x',
          idleTimeoutMs: IDLE,
        }),
      ).toBeNull();
      const tester = await inbound('', 'hi', { from: { phoneNumber: nextPhone(), isTestUser: true } });
      const again = await recordInbound(ds(), {
        from: { userId: tester.userId, testUserOnly: true },
        content: 'second',
        idleTimeoutMs: IDLE,
      });
      expect(again).toMatchObject({ created: true, isTestUser: true, conversationId: tester.conversationId });
      expect((await message(again?.messageId ?? '')).isTestUser).toBe(true);
      expect((await conversation(tester.conversationId)).isTestUser).toBe(true);
      await expectCountersAgree(tester.userId);
      await expectRollupsAgree();
    });

    it('applies STOP: opted out, a consent event, and the confirmation ordered after the STOP', async () => {
      const phone = nextPhone();
      await inbound(phone, 'When do I plant garlic?');
      const stop = await inbound(phone, 'STOP', {
        consent: STOP,
        providerSid: 'SMwriter0000000000000000000000003',
      });
      expect(stop.optedOut).toBe(true);
      expect(stop.consent?.replyMessageId).toEqual(expect.any(String));
      const [keyword, confirmation] = await Promise.all([
        message(stop.messageId),
        message(stop.consent?.replyMessageId ?? ''),
      ]);
      expect(keyword.kind).toBe('consent');
      expect(confirmation).toMatchObject({
        direction: 'outbound',
        kind: 'consent',
        status: 'queued',
        content: STOP.reply.content,
        encoding: 'GSM-7',
        segments: 1,
        conversationId: stop.conversationId,
      });
      expect(confirmation.createdAt.getTime()).toBeGreaterThan(keyword.createdAt.getTime());
      const events = await ds().getRepository(ConsentEvent).findBy({ userId: stop.userId });
      expect(events).toEqual([
        expect.objectContaining({
          type: 'opt_out',
          keyword: 'STOP',
          source: 'sms',
          messageId: stop.messageId,
          replyMessageId: confirmation.id,
        }),
      ]);
      const stopped = await user(stop.userId);
      expect(stopped.optedOut).toBe(true);
      expect(stopped.optedOutAt).toEqual(keyword.createdAt);
      expect(stopped.lastMessageAt).toEqual(confirmation.createdAt);
      const thread = await ds()
        .getRepository(Message)
        .find({ where: { conversationId: stop.conversationId }, order: { createdAt: 'ASC' } });
      expect(thread.map((m) => m.content)).toEqual(['When do I plant garlic?', 'STOP', STOP.reply.content]);
      expect((await conversation(stop.conversationId)).lastMessageAt).toEqual(confirmation.createdAt);
      await expectCountersAgree(stop.userId);

      // A repeated delivery writes nothing and names the same confirmation.
      const repeated = await inbound(phone, 'STOP', {
        consent: STOP,
        providerSid: 'SMwriter0000000000000000000000003',
      });
      expect(repeated).toMatchObject({
        created: false,
        messageId: stop.messageId,
        optedOut: true,
        consent: { replyMessageId: confirmation.id },
      });
      await expectCountersAgree(stop.userId);

      // Another STOP keeps the first opt-out time and gets no second confirmation (its consent
      // event is kept); START opts back in; HELP changes nothing.
      const again = await inbound(phone, 'quit', { consent: { ...STOP, keyword: 'QUIT' } });
      expect(again.consent).toEqual({ replyMessageId: null });
      expect((await user(again.userId)).optedOutAt).toEqual(stopped.optedOutAt);
      const start = await inbound(phone, 'START', { consent: START });
      expect(start.optedOut).toBe(false);
      const restarted = await user(start.userId);
      expect(restarted).toMatchObject({ optedOut: false, optedOutAt: null });
      const help = await inbound(phone, 'HELP', { consent: HELP });
      expect(help.optedOut).toBe(false);
      expect(
        (
          await ds()
            .getRepository(ConsentEvent)
            .find({ where: { userId: stop.userId }, order: { createdAt: 'ASC' } })
        ).map((e) => e.type),
      ).toEqual(['opt_out', 'opt_out', 'opt_in', 'help']);
      expect((await user(stop.userId)).totalMessages).toBe(8);
      await expectCountersAgree(stop.userId);
      await expectRollupsAgree();
    });
  });

  describe('recordOutbound', () => {
    it('orders a reply after its inbound, counts tokens and cost, and stores the changes given', async () => {
      const phone = nextPhone();
      // An inbound stamped in the future (another clock): the reply still comes after it.
      const future = new Date(Date.now() + 60_000);
      const question = await inbound(phone, 'How deep do I plant tulips?', { at: future });
      const reply = await recordOutbound(ds(), {
        userId: question.userId,
        conversationId: question.conversationId,
        inReplyTo: question.messageId,
        content: 'Plant tulips 6 to 8 inches deep.',
        kind: 'reply',
        encoding: 'GSM-7',
        segments: 1,
        tokens: 120,
        cost: 0.0015,
        modelUsed: 'gpt-4o-mini',
        answered: { sentiment: 'positive', topics: ['bulbs'] },
        user: { zipCode: '97201', profile: { region: 'Pacific Northwest' }, averageSentiment: 'positive' },
        conversation: { topics: ['bulbs'], sentiment: 'positive', region: 'Pacific Northwest' },
      });
      expect(reply).not.toBeNull();
      const stored = await message(reply?.id ?? '');
      expect(stored).toMatchObject({
        direction: 'outbound',
        status: 'queued',
        kind: 'reply',
        tokenUsage: 120,
        cost: 0.0015,
        modelUsed: 'gpt-4o-mini',
        isTestUser: false,
      });
      expect(stored.createdAt.getTime()).toBe(future.getTime() + 1);
      expect(stored.responseTimeMs).toBe(1);
      expect(await message(question.messageId)).toMatchObject({ sentiment: 'positive', topics: ['bulbs'] });
      const sender = await user(question.userId);
      expect(sender).toMatchObject({
        totalMessages: 2,
        totalTokens: 120,
        totalCost: 0.0015,
        zipCode: '97201',
        profile: { region: 'Pacific Northwest' },
        averageSentiment: 'positive',
      });
      expect(await conversation(question.conversationId)).toMatchObject({
        messageCount: 2,
        modelUsed: 'gpt-4o-mini',
        topics: ['bulbs'],
        sentiment: 'positive',
        region: 'Pacific Northwest',
      });
      await expectCountersAgree(question.userId);
      await expectRollupsAgree();
    });

    it('is idempotent on its id, even when two writers race', async () => {
      const question = await inbound(nextPhone(), 'When do I prune roses?');
      const id = '7d4c9e2a-0000-4000-8000-000000000001';
      const write = () =>
        recordOutbound(ds(), {
          id,
          userId: question.userId,
          conversationId: question.conversationId,
          inReplyTo: question.messageId,
          content: 'Prune roses in late winter.',
          kind: 'reply',
          encoding: 'GSM-7',
          segments: 1,
          tokens: 50,
          cost: 0.001,
        });
      const results = await Promise.all([write(), write(), write()]);
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      expect(await write()).toBeNull();
      expect((await user(question.userId)).totalTokens).toBe(50);
      await expectCountersAgree(question.userId);
    });

    it('reopens a conversation that ended in the meantime, and a later inbound continues it', async () => {
      const phone = nextPhone();
      const question = await inbound(phone, 'Why are my tomato leaves curling?');
      await endConversation(question.conversationId);
      await recordOutbound(ds(), {
        userId: question.userId,
        conversationId: question.conversationId,
        inReplyTo: question.messageId,
        content: 'Heat stress, usually.',
        kind: 'reply',
        encoding: 'GSM-7',
        segments: 1,
      });
      expect((await conversation(question.conversationId)).endedAt).toBeNull();
      const next = await inbound(phone, 'Thanks!');
      expect(next.conversationId).toBe(question.conversationId);
      await expectCountersAgree(question.userId);
    });
  });
});

describe('replyIdFor', () => {
  it('derives the same reply id as when the first replies were written', () => {
    // A changed derivation would let a repeated job write a second reply to a text answered before.
    expect(replyIdFor('0d8b9c3e-1f2a-4b5c-8d9e-0f1a2b3c4d5e')).toBe('55334e84-2af4-5f31-9ba3-2296b14d9382');
  });
});
