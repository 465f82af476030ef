// The simulator API against real Postgres and Redis. The reply pipeline itself is another service
// (services never import each other): here a worker on the real sms.inbound queue plays its part
// of the contract (write the reply row, answer SmsInboundJobResult); e2e/test/simulator.test.ts
// runs the same endpoints against the real ai-responder.
import { countersOf, useClosable } from '@sprout/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type {
  CreateTestUserResponse,
  SimulatorConversationResponse,
  SimulatorMessageResponse,
  SmsInboundJobResult,
  TestUserDto,
} from '@sprout/contracts';
import { ConsentEvent, Conversation, Message, User, recordInbound, recordOutbound } from '@sprout/domain';
import {
  JobQueues,
  type RunningWorkers,
  UnrecoverableError,
  createLogger,
  startWorkers,
} from '@sprout/platform';
import { IMAGE_ONLY_MESSAGE } from '../src/simulator/simulator-messages.service';
import { login, startSignedIn, expectStatusMessage } from './support/gateway';

const gw = useClosable(() => startSignedIn());
let app: NestFastifyApplication;
let cookie: string;

beforeAll(async () => {
  ({ app, cookie } = gw);
  // A test user's model must be an active model of Model Management.
  await gw.ds.query(`INSERT INTO ai_models (name) VALUES ('gpt-4o'), ('gpt-4.1-mini')`);
});

const api = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, as = cookie) =>
  app.inject({ method, url, headers: { cookie: as }, ...(payload === undefined ? {} : { payload }) });

const createUser = async (testUserName: string, testUserModel?: string): Promise<CreateTestUserResponse> => {
  const res = await api('POST', '/api/simulator/test-user', { testUserName, testUserModel });
  expect(res.statusCode).toBe(201);
  return res.json();
};

const insertRealUser = async (phone: string): Promise<string> => {
  const [row] = await gw.ds.query<{ id: string }[]>(
    'INSERT INTO users (phone_number) VALUES ($1) RETURNING id',
    [phone],
  );
  if (row === undefined) throw new Error('no user inserted');
  return row.id;
};

/** The user's and their conversations' counters as stored, and as their messages add them up. */
const expectCountersAgree = async (userId: string): Promise<void> => {
  const { stored, counted } = await countersOf(gw.db.dataSource, userId);
  expect(stored).toEqual(counted);
};

type ResponderMode = 'reply' | 'fail';

/**
 * A worker on sms.inbound that answers as the ai-responder's contract says: nothing for an
 * opted-out user, else one reply recorded by the message writer, whose id it returns. Its figures
 * are fixed so the answer's tokens and cost can be checked.
 */
const startResponder = async (mode: ResponderMode): Promise<RunningWorkers> =>
  startWorkers({
    connection: gw.redis.connection,
    prefix: gw.redis.prefix,
    owns: ['sms.inbound'],
    logger: createLogger({ name: 'test-responder', level: 'silent' }),
    handlers: {
      'sms.inbound': async ({ messageId }): Promise<SmsInboundJobResult> => {
        if (mode === 'fail') throw new UnrecoverableError('the model and every fallback failed');
        const inbound = await gw.db.dataSource
          .getRepository(Message)
          .findOne({ where: { id: messageId }, relations: { user: true } });
        if (inbound === null) return { outcome: 'missing', replyMessageId: null };
        // The pipeline answers an opted-out user nothing.
        if (inbound.user?.optedOut) return { outcome: 'opted-out', replyMessageId: null };
        const reply = await recordOutbound(gw.db.dataSource, {
          userId: inbound.userId,
          conversationId: inbound.conversationId,
          inReplyTo: inbound.id,
          content: `Reply to: ${inbound.content}`,
          kind: 'reply',
          encoding: 'GSM-7',
          segments: 1,
          tokens: 321,
          cost: 0.0042,
          modelUsed: 'gpt-4o-mini',
        });
        if (reply === null) throw new Error('the reply was not recorded');
        // A fixed figure, so the answer's response time can be checked.
        await gw.db.dataSource.getRepository(Message).update({ id: reply.id }, { responseTimeMs: 1234 });
        return { outcome: 'replied', replyMessageId: reply.id };
      },
    },
  });

describe('access', () => {
  it.each([
    ['GET', '/api/simulator/test-users'],
    ['POST', '/api/simulator/test-user'],
    ['DELETE', '/api/simulator/test-user/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/simulator/user/00000000-0000-4000-8000-000000000000/conversation'],
    ['POST', '/api/simulator/message'],
  ] as const)('%s %s answers 401 without a session and stores nothing', async (method, url) => {
    const res = await app.inject({
      method,
      url,
      ...(method === 'POST' ? { payload: { testUserName: 'x' } } : {}),
    });
    expectStatusMessage(res, 401, 'Authentication required');
  });
});

describe('POST /api/simulator/test-user', () => {
  it.each([{}, { testUserName: '' }, { testUserName: '   ' }])(
    'refuses %j with the name prompt',
    async (body) => {
      const res = await api('POST', '/api/simulator/test-user', body);
      expectStatusMessage(res, 400, 'Please enter a test user name');
    },
  );

  it('refuses a body that is not JSON object and a model name that is not one', async () => {
    const notObject = await api('POST', '/api/simulator/test-user', [1, 2]);
    expect(notObject.statusCode).toBe(400);
    const badModel = await api('POST', '/api/simulator/test-user', {
      testUserName: 'Ann',
      testUserModel: 'gpt 4o; DROP',
    });
    expect(badModel.statusCode).toBe(400);
    expect(badModel.json().message).toContain('testUserModel');
  });

  it('creates a test user with a trimmed name on a unique number of the reserved range', async () => {
    const created = await createUser('  Tomato Tess  ', 'gpt-4o');
    expect(created).toEqual({ id: expect.any(String), testUserName: 'Tomato Tess' });
    const others = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((name) => createUser(`Bulk ${name}`)));

    const rows = await gw.ds.query<
      {
        id: string;
        phone_number: string;
        is_test_user: boolean;
        test_user_name: string;
        test_user_model: string | null;
      }[]
    >(
      'SELECT id, phone_number, is_test_user, test_user_name, test_user_model FROM users WHERE id = ANY($1)',
      [[created.id, ...others.map((o) => o.id)]],
    );
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.phone_number).toMatch(/^\+1555010\d{4}$/);
      expect(row.is_test_user).toBe(true);
    }
    expect(new Set(rows.map((r) => r.phone_number)).size).toBe(6);
    const tess = rows.find((r) => r.id === created.id);
    expect(tess).toMatchObject({ test_user_name: 'Tomato Tess', test_user_model: 'gpt-4o' });
    expect(rows.find((r) => r.id === others[0]?.id)?.test_user_model).toBeNull();
  });
});

describe('GET /api/simulator/test-users', () => {
  it('lists test users only, newest first, with model, message count and status', async () => {
    const realId = await insertRealUser('+15035550177');
    const first = await createUser('List First');
    const second = await createUser('List Second', 'gpt-4.1-mini');
    const hi = await recordInbound(gw.db.dataSource, {
      from: { userId: first.id },
      content: 'hi',
      idleTimeoutMs: 60_000,
    });
    await recordOutbound(gw.db.dataSource, {
      userId: first.id,
      conversationId: hi?.conversationId ?? '',
      inReplyTo: hi?.messageId,
      content: 'hello',
      kind: 'reply',
      status: 'delivered',
      encoding: 'GSM-7',
      segments: 1,
    });

    const res = await api('GET', '/api/simulator/test-users');
    expect(res.statusCode).toBe(200);
    const users: TestUserDto[] = res.json();
    expect(users.some((u) => u.id === realId)).toBe(false);
    const ids = users.map((u) => u.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(users.find((u) => u.id === second.id)).toMatchObject({
      testUserName: 'List Second',
      testUserModel: 'gpt-4.1-mini',
      totalMessages: 0,
      isActive: true,
    });
    expect(users.find((u) => u.id === first.id)).toMatchObject({
      testUserName: 'List First',
      testUserModel: null,
      totalMessages: 2,
    });
  });
});

describe('GET /api/simulator/user/{id}/conversation', () => {
  it('answers the messages oldest first with images, tokens and cost, analytics and profile', async () => {
    const user = await createUser('Convo Carla');
    const ds = gw.db.dataSource;
    await ds.query(
      `UPDATE users SET region = 'Pacific Northwest',
         profile = '{"growingContext": "raised beds", "preferences": ["tomatoes", "herbs"], "conversationStyle": "brief"}'
       WHERE id = $1`,
      [user.id],
    );
    const ask = async (content: string, media: { url: string; contentType: string }[] = []) => {
      const record = await recordInbound(ds, {
        from: { userId: user.id },
        content,
        media,
        idleTimeoutMs: 60_000,
      });
      if (record === null) throw new Error('not recorded');
      return record;
    };
    const answer = (
      question: { messageId: string; conversationId: string },
      content: string,
      tokens: number,
      cost: number,
      model: string,
    ) =>
      recordOutbound(ds, {
        userId: user.id,
        conversationId: question.conversationId,
        inReplyTo: question.messageId,
        content,
        kind: 'reply',
        encoding: 'GSM-7',
        segments: 1,
        tokens,
        cost,
        modelUsed: model,
      });
    const leaf = await ask('What is this leaf spot?', [
      { url: 'https://example.com/leaf.jpg', contentType: 'image/jpeg' },
    ]);
    await answer(leaf, 'Looks like early blight.', 300, 0.003, 'gpt-4o');
    const treat = await ask('How do I treat it?');
    await answer(treat, 'Remove the leaves.', 100, 0.0005, 'gpt-4o-mini');
    await answer(treat, 'And water at the base.', 200, 0.001, 'gpt-4o-mini');

    const res = await api('GET', `/api/simulator/user/${user.id}/conversation`);
    expect(res.statusCode).toBe(200);
    const body: SimulatorConversationResponse = res.json();
    expect(body.user).toMatchObject({ id: user.id, testUserName: 'Convo Carla', totalMessages: 5 });
    expect(body.messages.map((m) => [m.direction, m.content])).toEqual([
      ['inbound', 'What is this leaf spot?'],
      ['outbound', 'Looks like early blight.'],
      ['inbound', 'How do I treat it?'],
      ['outbound', 'Remove the leaves.'],
      ['outbound', 'And water at the base.'],
    ]);
    expect(body.messages[0]).toMatchObject({
      imageUrl: 'https://example.com/leaf.jpg',
      createdAt: leaf.createdAt.toISOString(),
      tokenUsage: 0,
      cost: 0,
    });
    expect(body.messages[1]).toMatchObject({ imageUrl: null, tokenUsage: 300, cost: 0.003 });
    expect(body.analytics).toEqual({
      totalMessages: 5,
      totalTokens: 600,
      totalCost: 0.0045,
      averageTokensPerMessage: 200,
      primaryModel: 'gpt-4o-mini',
      modelUsage: [
        { modelName: 'gpt-4o-mini', messageCount: 2, totalTokens: 300, totalCost: 0.0015 },
        { modelName: 'gpt-4o', messageCount: 1, totalTokens: 300, totalCost: 0.003 },
      ],
    });
    expect(body.userProfile).toEqual({
      region: 'Pacific Northwest',
      growingContext: 'raised beds',
      preferences: ['tomatoes', 'herbs'],
      conversationStyle: 'brief',
    });
  });

  it('answers an empty conversation for a new test user', async () => {
    const user = await createUser('Empty Ed');
    const body: SimulatorConversationResponse = (
      await api('GET', `/api/simulator/user/${user.id}/conversation`)
    ).json();
    expect(body.messages).toEqual([]);
    expect(body.analytics).toEqual({
      totalMessages: 0,
      totalTokens: 0,
      totalCost: 0,
      averageTokensPerMessage: 0,
      primaryModel: null,
      modelUsage: [],
    });
    expect(body.userProfile).toEqual({
      region: null,
      growingContext: null,
      preferences: [],
      conversationStyle: null,
    });
  });

  it('answers 404 for a real user or an unknown id, 400 for a malformed id', async () => {
    const realId = await insertRealUser('+15035550178');
    expect((await api('GET', `/api/simulator/user/${realId}/conversation`)).statusCode).toBe(404);
    expect(
      (await api('GET', '/api/simulator/user/7d0e4b8a-0000-4000-8000-000000000000/conversation')).statusCode,
    ).toBe(404);
    const malformed = await api('GET', '/api/simulator/user/not-a-uuid/conversation');
    expectStatusMessage(malformed, 400, 'Invalid test user id.');
  });
});

describe('POST /api/simulator/message', () => {
  it.each([
    [{}, 'Please select a user'],
    [
      { userId: '7d0e4b8a-0000-4000-8000-000000000000' },
      'Please select a user and enter a message or image URL',
    ],
    [
      { userId: '7d0e4b8a-0000-4000-8000-000000000000', messageContent: '   ' },
      'Please select a user and enter a message or image URL',
    ],
  ])('refuses %j', async (body, message) => {
    const res = await api('POST', '/api/simulator/message', body);
    expectStatusMessage(res, 400, message);
  });

  it('refuses an image URL that is not http(s) and a content type that is not an image', async () => {
    const user = await createUser('Bad Input Bo');
    const badUrl = await api('POST', '/api/simulator/message', {
      userId: user.id,
      imageUrl: 'file:///etc/passwd',
    });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json().message).toContain('imageUrl');
    const badType = await api('POST', '/api/simulator/message', {
      userId: user.id,
      imageUrl: 'https://example.com/a.jpg',
      contentType: 'text/html',
    });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().message).toContain('contentType');
    expect(await gw.db.dataSource.getRepository(Message).countBy({ userId: user.id })).toBe(0);
  });

  it('answers 404 for a real user and stores nothing for them', async () => {
    const realId = await insertRealUser('+15035550179');
    const res = await api('POST', '/api/simulator/message', { userId: realId, messageContent: 'hello' });
    expect(res.statusCode).toBe(404);
    expect(await gw.db.dataSource.getRepository(Message).countBy({ userId: realId })).toBe(0);
  });

  describe('with the pipeline answering', () => {
    /** Sends a test user's text through the simulator (expecting 200); answers the response. */
    const sendAs =
      (userId: string) =>
      async (messageContent: string): Promise<SimulatorMessageResponse> => {
        const res = await api('POST', '/api/simulator/message', { userId, messageContent });
        expect(res.statusCode).toBe(200);
        return res.json();
      };
    const isOptedOut = async (userId: string) =>
      (await gw.db.dataSource.getRepository(User).findOneByOrFail({ id: userId })).optedOut;
    useClosable(() => startResponder('reply'));

    it('stores the message as an inbound SMS, queues it by message id and answers the reply', async () => {
      const user = await createUser('Pipeline Pat');
      const res = await api('POST', '/api/simulator/message', {
        userId: user.id,
        messageContent: '  When do I plant garlic?\nIn Portland.  ',
      });
      expect(res.statusCode).toBe(200);
      const body: SimulatorMessageResponse = res.json();
      expect(body).toEqual({
        responseTime: 1234,
        tokensUsed: 321,
        cost: 0.0042,
        reply: {
          id: expect.any(String),
          direction: 'outbound',
          content: 'Reply to: When do I plant garlic?\nIn Portland.',
          imageUrl: null,
          imageAnalysis: null,
          createdAt: expect.any(String),
          tokenUsage: 321,
          cost: 0.0042,
        },
      });

      const messages = gw.db.dataSource.getRepository(Message);
      const inbound = await messages.findOneByOrFail({ userId: user.id, direction: 'inbound' });
      expect(inbound).toMatchObject({
        content: 'When do I plant garlic?\nIn Portland.',
        status: 'received',
        isTestUser: true,
        media: [],
      });
      const job = await app.get(JobQueues).queue('sms.inbound').getJob(`inbound-${inbound.id}`);
      expect(await job?.getState()).toBe('completed');
      const [counts] = await gw.ds.query<{ message_count: number; total_messages: number }[]>(
        `SELECT c.message_count, u.total_messages FROM conversations c JOIN users u ON u.id = c.user_id
         WHERE c.id = $1`,
        [inbound.conversationId],
      );
      // The question and its reply, each counted once.
      expect(counts).toEqual({ message_count: 2, total_messages: 2 });
      await expectCountersAgree(user.id);

      const conversation: SimulatorConversationResponse = (
        await api('GET', `/api/simulator/user/${user.id}/conversation`)
      ).json();
      expect(conversation.messages.map((m) => m.direction)).toEqual(['inbound', 'outbound']);
    });

    it("handles a test user's STOP, HELP and START as an SMS's, and sends nothing", async () => {
      const user = await createUser('Consent Cora');
      const ds = gw.db.dataSource;
      const queues = app.get(JobQueues);
      const send = sendAs(user.id);
      const optedOut = () => isOptedOut(user.id);

      const stop = await send('Stop!');
      expect(stop).toMatchObject({ tokensUsed: 0, cost: 0, reply: { direction: 'outbound' } });
      expect(stop.reply?.content).toMatch(/^Sprout: You're unsubscribed/);
      expect(await optedOut()).toBe(true);
      const stopInbound = await ds
        .getRepository(Message)
        .findOneByOrFail({ userId: user.id, direction: 'inbound', content: 'Stop!' });
      expect(stopInbound.kind).toBe('consent');
      const confirmation = await ds.getRepository(Message).findOneByOrFail({ id: stop.reply?.id ?? '' });
      expect(confirmation).toMatchObject({ kind: 'consent', status: 'queued', isTestUser: true });
      expect(confirmation.createdAt.getTime()).toBeGreaterThan(stopInbound.createdAt.getTime());
      expect(await ds.getRepository(ConsentEvent).findBy({ userId: user.id })).toEqual([
        expect.objectContaining({
          type: 'opt_out',
          keyword: 'STOP',
          source: 'sms',
          messageId: stopInbound.id,
          replyMessageId: confirmation.id,
        }),
      ]);
      // The keyword never reaches the pipeline; its confirmation goes to sms.outbound, where a
      // test user's message is marked delivered without being sent.
      expect(await queues.queue('sms.inbound').getJob(`inbound-${stopInbound.id}`)).toBeUndefined();
      expect(await queues.queue('sms.outbound').getJob(`outbound-${confirmation.id}`)).toBeDefined();

      // Opted out: a question is stored and handed to the pipeline, which answers nothing.
      const ignored = await send('When do I plant garlic?');
      expect(ignored.reply).toBeNull();
      // An opt-out by intent from a user already opted out: recorded, not confirmed a second time.
      const again = await send('Stop texting me');
      expect(again.reply).toBeNull();
      expect(await optedOut()).toBe(true);

      const help = await send('HELP');
      expect(help.reply?.content).toMatch(/^Sprout: gardening advice by text/);
      expect(help.reply?.content).toContain('Reply STOP to opt out');
      expect(await optedOut()).toBe(true);

      const start = await send('start');
      expect(start.reply?.content).toMatch(/^Sprout: You're subscribed/);
      expect(await optedOut()).toBe(false);
      const answered = await send('When do I plant garlic?');
      expect(answered.reply?.content).toBe('Reply to: When do I plant garlic?');

      const events = await ds
        .getRepository(ConsentEvent)
        .find({ where: { userId: user.id }, order: { createdAt: 'ASC' } });
      expect(events.map((e) => [e.type, e.keyword])).toEqual([
        ['opt_out', 'STOP'],
        ['opt_out', 'STOP TEXTING ME'],
        ['help', 'HELP'],
        ['opt_in', 'START'],
      ]);
      const conversation: SimulatorConversationResponse = (
        await api('GET', `/api/simulator/user/${user.id}/conversation`)
      ).json();
      expect(conversation.messages.map((m) => m.content.slice(0, 20))).toEqual([
        'Stop!',
        "Sprout: You're unsub",
        'When do I plant garl',
        'Stop texting me',
        'HELP',
        'Sprout: gardening ad',
        'start',
        "Sprout: You're subsc",
        'When do I plant garl',
        'Reply to: When do I ',
      ]);
      expect(conversation.user.totalMessages).toBe(10);
      await expectCountersAgree(user.id);
    });

    it('asks a test user who may be opting out to reply STOP, in their language, and never once opted out', async () => {
      const user = await createUser('Maybe Mia');
      const ds = gw.db.dataSource;
      const send = sendAs(user.id);
      const optedOut = () => isOptedOut(user.id);

      const enough = await send('Enough!');
      expect(enough).toMatchObject({ tokensUsed: 0, cost: 0 });
      expect(enough.reply?.content).toBe(
        'Sprout: Reply STOP to unsubscribe from our texts. For gardening advice, just text us your question.',
      );
      const spanish = await send('no más tomates');
      expect(spanish.reply?.content).toMatch(/^Sprout: Responde STOP o BAJA para darte de baja/);
      expect(await optedOut()).toBe(false);
      const inbound = await ds
        .getRepository(Message)
        .findOneByOrFail({ userId: user.id, direction: 'inbound', content: 'Enough!' });
      expect(inbound.kind).toBe('consent');
      // Never the pipeline's: the responder would have answered "Reply to: ...".
      expect(await app.get(JobQueues).queue('sms.inbound').getJob(`inbound-${inbound.id}`)).toBeUndefined();

      const baja = await send('BAJA');
      expect(baja.reply?.content).toMatch(/^Sprout: Te diste de baja/);
      expect(await optedOut()).toBe(true);
      // Opted out: asked nothing more.
      expect((await send('enough')).reply).toBeNull();

      const events = await ds
        .getRepository(ConsentEvent)
        .find({ where: { userId: user.id }, order: { createdAt: 'ASC' } });
      expect(events.map((e) => [e.type, e.keyword])).toEqual([
        ['maybe_opt_out', 'ENOUGH'],
        ['maybe_opt_out', 'NOMAS TOMATES'],
        ['opt_out', 'BAJA'],
      ]);
      await expectCountersAgree(user.id);
    });

    it('opens a new conversation after CONVERSATION_IDLE_TIMEOUT_MS', async () => {
      const previous = process.env.CONVERSATION_IDLE_TIMEOUT_MS;
      process.env.CONVERSATION_IDLE_TIMEOUT_MS = String(10 * 60_000);
      let tenMinutes: NestFastifyApplication;
      try {
        tenMinutes = await gw.startAnother();
      } finally {
        if (previous === undefined) delete process.env.CONVERSATION_IDLE_TIMEOUT_MS;
        else process.env.CONVERSATION_IDLE_TIMEOUT_MS = previous;
      }
      const cookieThere = await login(tenMinutes);
      const user = await createUser('Idle Ida');
      const send = async (messageContent: string) => {
        const res = await tenMinutes.inject({
          method: 'POST',
          url: '/api/simulator/message',
          headers: { cookie: cookieThere },
          payload: { userId: user.id, messageContent },
        });
        expect(res.statusCode).toBe(200);
      };
      /** Moves the user's messages and conversations back in time, as if sent `minutes` earlier. */
      const age = async (minutes: number) => {
        const by = `${minutes} minutes`;
        const ds = gw.db.dataSource;
        await ds.query(`UPDATE messages SET created_at = created_at - $2::interval WHERE user_id = $1`, [
          user.id,
          by,
        ]);
        await ds.query(
          `UPDATE conversations SET started_at = started_at - $2::interval,
                  last_message_at = last_message_at - $2::interval WHERE user_id = $1`,
          [user.id, by],
        );
        await ds.query(`UPDATE users SET last_message_at = last_message_at - $2::interval WHERE id = $1`, [
          user.id,
          by,
        ]);
      };

      await send('How do I start seeds indoors?');
      await age(9);
      await send('And how warm should they be?');
      // Twenty minutes: past the configured timeout, well within the 6 h default.
      await age(20);
      await send('Are my seedlings leggy?');
      const conversations = await gw.db.dataSource
        .getRepository(Conversation)
        .find({ where: { userId: user.id }, order: { startedAt: 'ASC' } });
      expect(conversations.map((c) => c.messageCount)).toEqual([4, 2]);
      await expectCountersAgree(user.id);
    });

    it('gives an image-only message the image question and a JPEG attachment', async () => {
      const user = await createUser('Image Ivy');
      const res = await api('POST', '/api/simulator/message', {
        userId: user.id,
        messageContent: '',
        imageUrl: 'https://example.com/plant.png',
      });
      expect(res.statusCode).toBe(200);
      const inbound = await gw.db.dataSource
        .getRepository(Message)
        .findOneByOrFail({ userId: user.id, direction: 'inbound' });
      expect(inbound.content).toBe(IMAGE_ONLY_MESSAGE);
      // Typed in the console: image-processor fetches it under the admin URL policy (any public host).
      expect(inbound.media).toEqual([
        { url: 'https://example.com/plant.png', contentType: 'image/jpeg', source: 'admin' },
      ]);
      expect(inbound.imageContentType).toBe('image/jpeg');
      const body: SimulatorMessageResponse = res.json();
      expect(body.reply?.content).toBe(`Reply to: ${IMAGE_ONLY_MESSAGE}`);

      const conversation: SimulatorConversationResponse = (
        await api('GET', `/api/simulator/user/${user.id}/conversation`)
      ).json();
      expect(conversation.messages[0]?.imageUrl).toBe('https://example.com/plant.png');
    });

    it('keeps a given image content type', async () => {
      const user = await createUser('Image Ike');
      const res = await api('POST', '/api/simulator/message', {
        userId: user.id,
        messageContent: 'Is this ripe?',
        imageUrl: 'https://example.com/fruit.png',
        contentType: 'image/png',
      });
      expect(res.statusCode).toBe(200);
      const inbound = await gw.db.dataSource
        .getRepository(Message)
        .findOneByOrFail({ userId: user.id, direction: 'inbound' });
      expect(inbound).toMatchObject({
        content: 'Is this ripe?',
        media: [{ url: 'https://example.com/fruit.png', contentType: 'image/png', source: 'admin' }],
      });
    });
  });

  it('answers 502 with a readable message when the pipeline fails, keeping the message', async () => {
    const responder = await startResponder('fail');
    try {
      const user = await createUser('Failing Fay');
      const res = await api('POST', '/api/simulator/message', {
        userId: user.id,
        messageContent: 'Why are my beans yellow?',
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toMatch(/^Sprout could not write a reply/);
      expect(
        await gw.db.dataSource.getRepository(Message).countBy({ userId: user.id, direction: 'inbound' }),
      ).toBe(1);
    } finally {
      await responder.close();
    }
  });

  it('answers 504 after SIMULATOR_REPLY_TIMEOUT_MS, and the queued message is still answered later', async () => {
    const previous = process.env.SIMULATOR_REPLY_TIMEOUT_MS;
    process.env.SIMULATOR_REPLY_TIMEOUT_MS = '300';
    let impatient: NestFastifyApplication;
    try {
      impatient = await gw.startAnother();
    } finally {
      if (previous === undefined) delete process.env.SIMULATOR_REPLY_TIMEOUT_MS;
      else process.env.SIMULATOR_REPLY_TIMEOUT_MS = previous;
    }
    const user = await createUser('Slow Sam');
    // No worker is running: the job waits in the queue.
    const res = await impatient.inject({
      method: 'POST',
      url: '/api/simulator/message',
      headers: { cookie: await login(impatient) },
      payload: { userId: user.id, messageContent: 'Anyone there?' },
    });
    expectStatusMessage(
      res,
      504,
      'No reply yet after 0.3 seconds. The message is saved and Sprout is still working on it: the reply will appear in the conversation when it is ready.',
    );
    const messages = gw.db.dataSource.getRepository(Message);
    const inbound = await messages.findOneByOrFail({ userId: user.id, direction: 'inbound' });
    const job = await app.get(JobQueues).queue('sms.inbound').getJob(`inbound-${inbound.id}`);
    expect(await job?.getState()).toBe('waiting');

    const responder = await startResponder('reply');
    try {
      const deadline = Date.now() + 20_000;
      while ((await messages.countBy({ userId: user.id, direction: 'outbound' })) === 0) {
        if (Date.now() > deadline) throw new Error('the queued message was never answered');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await responder.close();
    }
  });
});

describe('DELETE /api/simulator/test-user/{id}', () => {
  it('deletes a test user with their messages', async () => {
    const user = await createUser('Doomed Dot');
    const [conversation] = await gw.ds.query<{ id: string }[]>(
      'INSERT INTO conversations (user_id, is_test_user) VALUES ($1, true) RETURNING id',
      [user.id],
    );
    await gw.ds.query(
      `INSERT INTO messages (user_id, conversation_id, direction, content, status, is_test_user)
       VALUES ($1, $2, 'inbound', 'bye', 'received', true)`,
      [user.id, conversation?.id],
    );
    const res = await api('DELETE', `/api/simulator/test-user/${user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const users: TestUserDto[] = (await api('GET', '/api/simulator/test-users')).json();
    expect(users.some((u) => u.id === user.id)).toBe(false);
    expect(await gw.db.dataSource.getRepository(Message).countBy({ userId: user.id })).toBe(0);
    expect((await api('DELETE', `/api/simulator/test-user/${user.id}`)).statusCode).toBe(404);
  });

  it('never deletes a real user', async () => {
    const realId = await insertRealUser('+15035550180');
    const res = await api('DELETE', `/api/simulator/test-user/${realId}`);
    expectStatusMessage(res, 404, 'Test user not found.');
    const [row] = await gw.ds.query<{ count: string }[]>('SELECT count(*) FROM users WHERE id = $1', [
      realId,
    ]);
    expect(row?.count).toBe('1');
    expect((await api('DELETE', '/api/simulator/test-user/nope')).statusCode).toBe(400);
  });
});
