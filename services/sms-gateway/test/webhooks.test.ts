import { Message, User } from '@sprout/domain';
import { JobQueues } from '@sprout/platform';
import { type GatewayHarness, nextPhone, startGateway } from './harness';

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

describe('Twilio webhooks', () => {
  let h: GatewayHarness;
  let inboundUrl: string;

  beforeAll(async () => {
    h = await startGateway();
    inboundUrl = `${h.baseUrl}/webhooks/twilio/sms`;
  });
  afterAll(async () => {
    await h?.close();
  });

  const countMessages = (sid: string) => h.db.dataSource.getRepository(Message).countBy({ providerSid: sid });

  it('rejects a forged signature with 403 and stores nothing', async () => {
    const from = nextPhone();
    const response = await h.twilio.sendInbound(
      inboundUrl,
      { From: from, To: '+15005550006', Body: 'hello', MessageSid: 'SMforged00000000000000000000000001' },
      { authToken: 'not-the-real-token' },
    );
    expect(response.status).toBe(403);
    expect(await countMessages('SMforged00000000000000000000000001')).toBe(0);
    expect(await h.db.dataSource.getRepository(User).countBy({ phoneNumber: from })).toBe(0);
  });

  it('rejects a missing signature with 403', async () => {
    const response = await fetch(inboundUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        From: nextPhone(),
        Body: 'hi',
        MessageSid: 'SMnosig000000000000000000000000001',
      }).toString(),
    });
    expect(response.status).toBe(403);
    expect(await countMessages('SMnosig000000000000000000000000001')).toBe(0);
  });

  it('stores a signed inbound SMS once, answers empty TwiML and enqueues it', async () => {
    const from = nextPhone();
    const sid = 'SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa01';
    const first = await h.twilio.sendInbound(inboundUrl, {
      From: from,
      To: '+15005550006',
      Body: 'When do I plant garlic?',
      MessageSid: sid,
    });
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/xml/);
    expect(first.body).toBe(EMPTY_TWIML);

    const message = await h.db.dataSource
      .getRepository(Message)
      .findOneOrFail({ where: { providerSid: sid }, relations: { user: true } });
    expect(message).toMatchObject({
      direction: 'inbound',
      status: 'received',
      content: 'When do I plant garlic?',
    });
    expect(message.user?.phoneNumber).toBe(from);
    expect(message.user?.totalMessages).toBe(1);

    const queues = h.gateway.app.get(JobQueues);
    const job = await queues.queue('sms.inbound').getJob(`inbound-${message.id}`);
    expect(job?.data).toEqual({ messageId: message.id });

    const repeat = await h.twilio.sendInbound(inboundUrl, {
      From: from,
      To: '+15005550006',
      Body: 'When do I plant garlic?',
      MessageSid: sid,
    });
    expect(repeat.status).toBe(200);
    expect(await countMessages(sid)).toBe(1);
    const user = await h.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: from });
    expect(user.totalMessages).toBe(1);
    expect(await queues.queue('sms.inbound').count()).toBe(1);
  });

  it('keeps one row when the same MessageSid arrives concurrently', async () => {
    const from = nextPhone();
    const sid = 'SMbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb02';
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        h.twilio.sendInbound(inboundUrl, {
          From: from,
          To: '+15005550006',
          Body: 'Aphids!',
          MessageSid: sid,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await countMessages(sid)).toBe(1);
  });

  it('answers 400 with a reason for a signed request without From', async () => {
    const params = { MessageSid: 'SMcccccccccccccccccccccccccccccc03', Body: 'x' };
    const response = await fetch(inboundUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Twilio-Signature': h.twilio.signWebhook(inboundUrl, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('From');
  });

  it('queues a signed status callback once per sid and status, and rejects a forged one', async () => {
    const statusUrl = `${h.baseUrl}/webhooks/twilio/status`;
    const params = { MessageSid: 'SMdddddddddddddddddddddddddddddd04', MessageStatus: 'delivered' };
    const post = (signature: string) =>
      fetch(statusUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature },
        body: new URLSearchParams(params).toString(),
      });
    expect((await post('forged')).status).toBe(403);
    const signature = h.twilio.signWebhook(statusUrl, params);
    expect((await post(signature)).status).toBe(204);
    expect((await post(signature)).status).toBe(204);
    const queues = h.gateway.app.get(JobQueues);
    const job = await queues
      .queue('sms.status')
      .getJob('status-SMdddddddddddddddddddddddddddddd04-delivered');
    expect(job?.data).toEqual({ providerSid: params.MessageSid, status: 'delivered' });
  });

  it('serves health and metrics', async () => {
    const live = await fetch(`${h.baseUrl}/health/live`);
    expect(live.status).toBe(200);
    const ready = await fetch(`${h.baseUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ok',
      checks: { database: { status: 'up' }, redis: { status: 'up' } },
    });
    const metrics = await fetch(`${h.baseUrl}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await metrics.text()).toContain('sprout_jobs_enqueued_total');
  });
});
