// The SMS path across services: sms-gateway (webhooks, consent, outbound, delivery checks),
// ai-responder (replies) and api-gateway (check-delivery), on one database and Redis prefix,
// with the real twilio SDK talking to the fake Twilio.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConsentEvent, Conversation, LlmCall, Message, User } from '@sprout/domain';
import { JobQueues, findFreePort } from '@sprout/platform';
import {
  FakeTwilio,
  type TestDatabase,
  type TestRedis,
  createTestDatabase,
  createTestRedis,
} from '@sprout/testing';
import { createApp as createResponder } from '../../services/ai-responder/src/app';
import { createApp as createApiGateway } from '../../services/api-gateway/src/app';
import { createApp as createSmsGateway } from '../../services/sms-gateway/src/app';
import { eventually } from '../src/helpers';

const ADMIN_USERNAME = 'sms-path-admin';
const ADMIN_PASSWORD = 'sms-path-admin-password';
const OUR_NUMBER = '+15005550006';

describe('the SMS path across services', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let twilio: FakeTwilio;
  let smsGateway: Awaited<ReturnType<typeof createSmsGateway>>;
  let responder: Awaited<ReturnType<typeof createResponder>>;
  let api: NestFastifyApplication;
  let inboundUrl: string;
  let sidCounter = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    twilio = await FakeTwilio.start({ callbackDelayMs: 5 });
    const shared = {
      databaseUrl: db.url,
      redisUrl: redis.url,
      bullmqPrefix: redis.prefix,
      host: '127.0.0.1',
      logLevel: 'silent' as const,
    };
    const port = await findFreePort();
    const publicBaseUrl = `http://127.0.0.1:${port}`;
    smsGateway = await createSmsGateway({
      ...shared,
      port,
      publicBaseUrl,
      twilioApiBaseUrl: twilio.url,
      twilioAccountSid: twilio.accountSid,
      twilioAuthToken: twilio.authToken,
    });
    responder = await createResponder({ ...shared, port: await findFreePort() });
    api = await createApiGateway({ ...shared, adminUsername: ADMIN_USERNAME, adminPassword: ADMIN_PASSWORD });
    inboundUrl = `${publicBaseUrl}/webhooks/twilio/sms`;
  });

  afterAll(async () => {
    await api?.close();
    await smsGateway?.close();
    await responder?.close();
    await twilio?.close();
    await redis?.cleanup();
    await db?.drop();
  });

  beforeEach(() => {
    twilio.reset();
    twilio.disableCallbacks = false;
  });

  const messages = () => db.dataSource.getRepository(Message);
  const text = async (
    from: string,
    body: string,
    sid = `SMpath${String(++sidCounter).padStart(28, '0')}`,
  ) => {
    const answer = await twilio.sendInbound(inboundUrl, {
      From: from,
      To: OUR_NUMBER,
      Body: body,
      MessageSid: sid,
    });
    expect(answer.status).toBe(200);
    return sid;
  };
  const outboundOf = (userId: string) =>
    messages().find({ where: { userId, direction: 'outbound' }, order: { createdAt: 'ASC' } });

  it('answers the same MessageSid three times with one reply', async () => {
    const phone = '+15415550161';
    const sid = await text(phone, 'When should I plant tomatoes in Portland?');
    await text(phone, 'When should I plant tomatoes in Portland?', sid);
    await text(phone, 'When should I plant tomatoes in Portland?', sid);

    const user = await db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
    const reply = await eventually(async () => {
      const [first] = await outboundOf(user.id);
      return first?.status === 'delivered' ? first : undefined;
    }, 'the reply to be delivered');
    expect(reply.kind).not.toBe('consent');
    // Every job has run: the inbound job completed and the reply's send and callbacks are done.
    await twilio.waitForCallbacks(2);
    expect(await messages().countBy({ userId: user.id, direction: 'inbound' })).toBe(1);
    expect(await messages().countBy({ userId: user.id, direction: 'outbound' })).toBe(1);
    expect(twilio.sent.filter((m) => m.to === phone)).toHaveLength(1);
  });

  it('answers STOP with its confirmation only: no model call, no reply, nothing afterwards', async () => {
    const phone = '+15415550162';
    await text(phone, 'Stop.');
    const user = await db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
    expect(user.optedOut).toBe(true);
    const confirmation = await eventually(async () => {
      const [first] = await outboundOf(user.id);
      return first?.status === 'delivered' ? first : undefined;
    }, 'the opt-out confirmation to be delivered');
    expect(confirmation.kind).toBe('consent');
    expect(confirmation.content).toMatch(/unsubscribed/);

    // A question afterwards goes to the pipeline, which answers an opted-out user nothing.
    const sid = await text(phone, 'When do I plant garlic?');
    const question = await messages().findOneByOrFail({ providerSid: sid });
    const job = await smsGateway.app.get(JobQueues).queue('sms.inbound').getJob(`inbound-${question.id}`);
    await eventually(
      async () => ((await job?.getState()) === 'completed' ? true : undefined),
      'the pipeline to finish with the question',
    );
    expect(await outboundOf(user.id)).toHaveLength(1);
    expect(await db.dataSource.getRepository(LlmCall).countBy({ userId: user.id })).toBe(0);
    expect(twilio.sent.filter((m) => m.to === phone).map((m) => m.body)).toEqual([confirmation.content]);
    expect(await db.dataSource.getRepository(ConsentEvent).countBy({ userId: user.id })).toBe(1);
  });

  it('updates a delivery status through POST /api/admin/conversations/{id}/check-delivery', async () => {
    // No status callbacks: only the delivery check can learn that Twilio delivered the reply.
    twilio.disableCallbacks = true;
    const phone = '+15415550163';
    await text(phone, 'How deep should I plant garlic cloves?');
    const user = await db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
    const sent = await eventually(async () => {
      const [first] = await outboundOf(user.id);
      return first?.providerSid ? first : undefined;
    }, 'the reply to be handed to Twilio');
    await eventually(
      async () => (twilio.getMessage(sent.providerSid ?? '')?.status === 'delivered' ? true : undefined),
      'Twilio to deliver the reply',
    );
    expect((await messages().findOneByOrFail({ id: sent.id })).status).not.toBe('delivered');

    const login = await api.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const setCookie = login.headers['set-cookie'];
    const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
      .find((c) => c.startsWith('sprout_session='))
      ?.split(';')[0];
    if (cookie === undefined) throw new Error('login set no session cookie');

    const conversation = await db.dataSource
      .getRepository(Conversation)
      .findOneByOrFail({ id: sent.conversationId });
    const response = await api.inject({
      method: 'POST',
      url: `/api/admin/conversations/${conversation.id}/check-delivery`,
      headers: { cookie },
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, checked: 1, updated: 1 });
    const updated = await messages().findOneByOrFail({ id: sent.id });
    expect(updated.status).toBe('delivered');
    expect(updated.deliveredAt).not.toBeNull();
  });

  it('npm run sms: texts the stack with a signed webhook and prints the reply', async () => {
    const phone = '+15415550164';
    const tools = path.resolve(__dirname, '..', '..', 'tools');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        path.join(tools, 'stack', 'run.mjs'),
        path.join(tools, 'stack', 'sms-cli.ts'),
        '--from',
        phone,
        '--url',
        inboundUrl,
        '--zip',
        '97201',
        '--timeout',
        '30',
        'When do I plant tomatoes?',
      ],
      {
        env: {
          ...process.env,
          TWILIO_ACCOUNT_SID: twilio.accountSid,
          TWILIO_AUTH_TOKEN: twilio.authToken,
          TWILIO_API_BASE_URL: twilio.url,
          TWILIO_PHONE_NUMBER: OUR_NUMBER,
          PUBLIC_BASE_URL: new URL(inboundUrl).origin,
        },
        timeout: 90_000,
      },
    );
    const user = await db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
    const [inbound] = await messages().findBy({ userId: user.id, direction: 'inbound' });
    expect(inbound).toMatchObject({
      content: 'When do I plant tomatoes?',
      locationHint: { zip: '97201', country: 'US' },
    });
    const [reply] = await outboundOf(user.id);
    expect(reply?.content).toBeTruthy();
    expect(stdout).toContain(`> ${phone} to ${OUR_NUMBER}: When do I plant tomatoes?`);
    expect(stdout).toContain(`< ${reply?.content ?? ''}`);
  });
});
