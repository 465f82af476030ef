import { Conversation, Message, User } from '@sprout/domain';
import { JobQueues } from '@sprout/platform';
import { type GatewayHarness, countersOf, nextPhone, startGateway } from './harness';

/** Shorter than the 6 h default, so a test can tell that the configured value decides. */
const IDLE_TIMEOUT_MS = 30 * 60_000;
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

describe('Twilio webhooks', () => {
  let h: GatewayHarness;
  let inboundUrl: string;

  beforeAll(async () => {
    h = await startGateway({}, { conversationIdleTimeoutMs: IDLE_TIMEOUT_MS });
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

  it('rejects a signature of other parameters or another URL with 403', async () => {
    const from = nextPhone();
    const signed = {
      From: from,
      To: '+15005550006',
      Body: 'hello',
      MessageSid: 'SMtampered000000000000000000000001',
    };
    const post = (params: Record<string, string>, signature: string) =>
      fetch(inboundUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature },
        body: new URLSearchParams(params).toString(),
      });
    const tampered = await post({ ...signed, Body: 'STOP' }, h.twilio.signWebhook(inboundUrl, signed));
    expect(tampered.status).toBe(403);
    const elsewhere = await post(
      signed,
      h.twilio.signWebhook('https://elsewhere.example/webhooks/twilio/sms', signed),
    );
    expect(elsewhere.status).toBe(403);
    expect(await countMessages(signed.MessageSid)).toBe(0);
    expect(await h.db.dataSource.getRepository(User).countBy({ phoneNumber: from })).toBe(0);
    expect(await h.gateway.app.get(JobQueues).queue('sms.inbound').count()).toBe(0);
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

  it('files messages by CONVERSATION_IDLE_TIMEOUT_MS and keeps the counters equal to the messages', async () => {
    const from = nextPhone();
    let sid = 0;
    const text = async (body: string): Promise<Message> => {
      const messageSid = `SMidle${String(++sid).padStart(28, '0')}`;
      const answer = await h.twilio.sendInbound(inboundUrl, {
        From: from,
        To: '+15005550006',
        Body: body,
        MessageSid: messageSid,
      });
      expect(answer.status).toBe(200);
      return h.db.dataSource.getRepository(Message).findOneByOrFail({ providerSid: messageSid });
    };
    /** Moves everything the user has back in time, as if it had been sent `ms` earlier. */
    const age = async (userId: string, ms: number) => {
      const by = `${ms} milliseconds`;
      await h.db.dataSource.query(
        `UPDATE messages SET created_at = created_at - $2::interval WHERE user_id = $1`,
        [userId, by],
      );
      await h.db.dataSource.query(
        `UPDATE conversations SET started_at = started_at - $2::interval,
                last_message_at = last_message_at - $2::interval WHERE user_id = $1`,
        [userId, by],
      );
      await h.db.dataSource.query(
        `UPDATE users SET last_message_at = last_message_at - $2::interval WHERE id = $1`,
        [userId, by],
      );
    };

    const first = await text('When do I plant garlic?');
    await age(first.userId, IDLE_TIMEOUT_MS - 60_000);
    const second = await text('And shallots?');
    expect(second.conversationId).toBe(first.conversationId);
    // Over the configured timeout, though well under the 6 h default: a new conversation.
    await age(first.userId, IDLE_TIMEOUT_MS + 60_000);
    const third = await text('Is it too late for peas?');
    expect(third.conversationId).not.toBe(first.conversationId);

    const conversations = await h.db.dataSource
      .getRepository(Conversation)
      .find({ where: { userId: first.userId }, order: { startedAt: 'ASC' } });
    expect(conversations.map((c) => c.messageCount)).toEqual([2, 1]);
    const { stored, counted } = await countersOf(h.db.dataSource, first.userId);
    expect(stored).toEqual(counted);
  });

  it('keeps MMS media and the carrier location hint on the message', async () => {
    const from = nextPhone();
    const sid = 'SMmms00000000000000000000000000005';
    const answer = await h.twilio.sendInbound(inboundUrl, {
      From: from,
      To: '+15005550006',
      Body: 'What is eating these leaves?',
      MessageSid: sid,
      NumMedia: '2',
      MediaUrl0: 'https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM1/Media/ME1',
      MediaContentType0: 'image/jpeg',
      MediaUrl1: 'https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM1/Media/ME2',
      MediaContentType1: 'image/png',
      FromZip: '97201',
      FromCity: 'PORTLAND',
      FromState: 'OR',
      FromCountry: 'US',
    });
    expect(answer.status).toBe(200);
    const message = await h.db.dataSource.getRepository(Message).findOneByOrFail({ providerSid: sid });
    expect(message.media).toEqual([
      {
        url: 'https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM1/Media/ME1',
        contentType: 'image/jpeg',
      },
      {
        url: 'https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM1/Media/ME2',
        contentType: 'image/png',
      },
    ]);
    expect(message.imageContentType).toBe('image/jpeg');
    expect(message.locationHint).toEqual({ zip: '97201', city: 'PORTLAND', state: 'OR', country: 'US' });
    // A hint only: the user's own location stays for the pipeline to decide.
    const user = await h.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: from });
    expect(user.zipCode).toBeNull();
  });

  it('stores no location hint when Twilio sends none, and only the fields it sent', async () => {
    const bare = await h.twilio.sendInbound(inboundUrl, {
      From: nextPhone(),
      To: '+15005550006',
      Body: 'hello',
      MessageSid: 'SMhint0000000000000000000000000006',
      FromCountry: '',
      FromZip: ' ',
    });
    expect(bare.status).toBe(200);
    const repo = h.db.dataSource.getRepository(Message);
    expect(
      (await repo.findOneByOrFail({ providerSid: 'SMhint0000000000000000000000000006' })).locationHint,
    ).toBeNull();

    await h.twilio.sendInbound(inboundUrl, {
      From: nextPhone(),
      To: '+15005550006',
      Body: 'hello',
      MessageSid: 'SMhint0000000000000000000000000007',
      FromState: 'WA',
      FromCountry: '',
    });
    expect(
      (await repo.findOneByOrFail({ providerSid: 'SMhint0000000000000000000000000007' })).locationHint,
    ).toEqual({ state: 'WA' });
  });

  it('answers the same MessageSid three times with one stored message and one queued job', async () => {
    const from = nextPhone();
    const sid = 'SMthrice000000000000000000000000008';
    for (let i = 0; i < 3; i += 1) {
      const answer = await h.twilio.sendInbound(inboundUrl, {
        From: from,
        To: '+15005550006',
        Body: 'Is it too late to plant beans?',
        MessageSid: sid,
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(EMPTY_TWIML);
    }
    const message = await h.db.dataSource.getRepository(Message).findOneByOrFail({ providerSid: sid });
    expect(await countMessages(sid)).toBe(1);
    const inbound = h.gateway.app.get(JobQueues).queue('sms.inbound');
    const jobs = await inbound.getJobs(['waiting', 'active', 'delayed', 'completed']);
    expect(jobs.filter((j) => (j.data as { messageId?: string }).messageId === message.id)).toHaveLength(1);
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

  it('queues a signed status callback and rejects a forged one', async () => {
    const statusUrl = `${h.baseUrl}/webhooks/twilio/status`;
    const params = { MessageSid: 'SMdddddddddddddddddddddddddddddd04', MessageStatus: 'delivered' };
    const post = (signature: string) =>
      fetch(statusUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature },
        body: new URLSearchParams(params).toString(),
      });
    const queue = h.gateway.app.get(JobQueues).queue('sms.status');
    // Paused: the job stays waiting, where the test reads it.
    await queue.pause();
    try {
      expect((await post('forged')).status).toBe(403);
      expect(await queue.getWaitingCount()).toBe(0);
      expect((await post(h.twilio.signWebhook(statusUrl, params))).status).toBe(204);
      const jobs = await queue.getWaiting();
      expect(jobs.map((job): unknown => job.data)).toEqual([
        { callbacks: [{ providerSid: params.MessageSid, status: 'delivered' }] },
      ]);
    } finally {
      await queue.resume();
    }
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
