// The walking skeleton end to end: a signed inbound SMS reaches sms-gateway, ai-responder writes
// a reply, sms-gateway sends it through (fake) Twilio and the status callbacks mark it delivered.
import { Message, User } from '@sprout/domain';
import { JobQueues, findFreePort } from '@sprout/platform';
import {
  FakeTwilio,
  type TestDatabase,
  type TestRedis,
  createTestDatabase,
  createTestRedis,
} from '@sprout/testing';
import { createApp as createResponder } from '../../services/ai-responder/src/app';
import { createApp as createGateway } from '../../services/sms-gateway/src/app';
import { eventually } from '../src/helpers';

describe('walking skeleton: SMS in, advice out', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let twilio: FakeTwilio;
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let responder: Awaited<ReturnType<typeof createResponder>>;
  let inboundUrl: string;

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
    const gatewayPort = await findFreePort();
    const publicBaseUrl = `http://127.0.0.1:${gatewayPort}`;
    gateway = await createGateway({
      ...shared,
      port: gatewayPort,
      publicBaseUrl,
      twilioApiBaseUrl: twilio.url,
      twilioAccountSid: twilio.accountSid,
      twilioAuthToken: twilio.authToken,
    });
    responder = await createResponder({ ...shared, port: await findFreePort() });
    inboundUrl = `${publicBaseUrl}/webhooks/twilio/sms`;
  });

  afterAll(async () => {
    await gateway?.close();
    await responder?.close();
    await twilio?.close();
    await redis?.cleanup();
    await db?.drop();
  });

  it('delivers exactly one reply, also when Twilio repeats the webhook', async () => {
    const phone = '+15415550142';
    const sid = `SM${'e'.repeat(32)}`;
    const answer = await twilio.sendInbound(inboundUrl, {
      From: phone,
      To: '+15005550006',
      Body: 'How often should I water my new apple tree?',
      MessageSid: sid,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');

    const messages = db.dataSource.getRepository(Message);
    const user = await db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
    const reply = await eventually(
      () =>
        messages
          .findOneBy({ userId: user.id, direction: 'outbound', status: 'delivered' })
          .then((m) => m ?? undefined),
      'the reply to be delivered',
    );
    expect(reply.providerSid).toMatch(/^SM/);
    expect(reply.deliveredAt).not.toBeNull();
    expect(twilio.sent).toHaveLength(1);
    expect(twilio.sent[0]).toMatchObject({ to: phone, body: reply.content });

    // Twilio retries the same webhook: nothing new is stored, answered or sent.
    const repeat = await twilio.sendInbound(inboundUrl, {
      From: phone,
      To: '+15005550006',
      Body: 'How often should I water my new apple tree?',
      MessageSid: sid,
    });
    expect(repeat.status).toBe(200);
    expect(await messages.countBy({ userId: user.id, direction: 'inbound' })).toBe(1);
    const inbound = await messages.findOneByOrFail({ providerSid: sid });
    const inboundJob = await responder.app
      .get(JobQueues)
      .queue('sms.inbound')
      .getJob(`inbound-${inbound.id}`);
    expect(await inboundJob?.getState()).toBe('completed');
    expect(await messages.countBy({ userId: user.id, direction: 'outbound' })).toBe(1);
    expect(twilio.sent).toHaveLength(1);
  });
});
