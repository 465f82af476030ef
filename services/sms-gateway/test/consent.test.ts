import { ConsentEvent, Conversation, Message, User } from '@sprout/domain';
import { JobQueues } from '@sprout/platform';
import { OPTED_OUT_ERROR_MESSAGE } from '../src/outbound/outbound.service';
import {
  type GatewayHarness,
  countersOf,
  eventually,
  insertQueuedReply,
  nextPhone,
  startGateway,
} from './harness';

const CONTACT_EMAIL = 'help@sprout-gardens.test';
const OUR_NUMBER = '+15005550006';

describe('SMS consent keywords', () => {
  let h: GatewayHarness;
  let inboundUrl: string;
  let sidCounter = 0;

  beforeAll(async () => {
    h = await startGateway({ callbackDelayMs: 5 }, { contactEmail: CONTACT_EMAIL });
    inboundUrl = `${h.baseUrl}/webhooks/twilio/sms`;
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => h.twilio.reset());

  const repo = {
    messages: () => h.db.dataSource.getRepository(Message),
    users: () => h.db.dataSource.getRepository(User),
    events: () => h.db.dataSource.getRepository(ConsentEvent),
  };
  const queues = () => h.gateway.app.get(JobQueues);
  const nextSid = () => `SMconsent${String(++sidCounter).padStart(25, '0')}`;

  /** Posts a signed inbound SMS; answers the stored inbound message. */
  const text = async (from: string, body: string, sid = nextSid()): Promise<Message> => {
    const answer = await h.twilio.sendInbound(inboundUrl, {
      From: from,
      To: OUR_NUMBER,
      Body: body,
      MessageSid: sid,
    });
    expect(answer.status).toBe(200);
    return repo.messages().findOneByOrFail({ providerSid: sid });
  };

  /** The consent confirmations written for a user, oldest first. */
  const confirmationsOf = (userId: string) =>
    repo.messages().find({
      where: { userId, direction: 'outbound', kind: 'consent' },
      order: { createdAt: 'ASC' },
    });

  /** Waits until the message reached a final status (the confirmation went through the worker). */
  const settled = (id: string) =>
    eventually(async () => {
      const message = await repo.messages().findOneByOrFail({ id });
      return ['delivered', 'failed', 'undelivered'].includes(message.status) ? message : undefined;
    }, `message ${id} to settle`);

  /** The user's counters equal what their messages add up to. */
  const expectCountersAgree = async (userId: string) => {
    const { stored, counted } = await countersOf(h.db.dataSource, userId);
    expect(stored).toEqual(counted);
  };

  const inboundJobOf = (messageId: string) => queues().queue('sms.inbound').getJob(`inbound-${messageId}`);

  /** An outbound message for the user, queued as ai-responder (reply) or a survey would queue it. */
  const queueReplyTo = async (
    user: User,
    content: string,
    kind: 'reply' | 'survey' = 'reply',
  ): Promise<Message> => {
    const conversation = await h.db.dataSource
      .getRepository(Conversation)
      .findOneOrFail({ where: { userId: user.id }, order: { lastMessageAt: 'DESC' } });
    const reply = await repo.messages().save(
      repo.messages().create({
        userId: user.id,
        conversationId: conversation.id,
        direction: 'outbound',
        content,
        status: 'queued',
        kind,
      }),
    );
    await queues().enqueue('sms.outbound', { messageId: reply.id });
    return reply;
  };

  describe.each([
    ['STOP', 'STOP'],
    ['stop', 'STOP'],
    ['  Stop  ', 'STOP'],
    ['STOP!', 'STOP'],
    ['stopall', 'STOPALL'],
    ['StopAll.', 'STOPALL'],
    ['UNSUBSCRIBE', 'UNSUBSCRIBE'],
    ['unsubscribe!!', 'UNSUBSCRIBE'],
    ['cancel', 'CANCEL'],
    [' Cancel. ', 'CANCEL'],
    ['END', 'END'],
    ['end\n', 'END'],
    ['quit', 'QUIT'],
    ['Quit!', 'QUIT'],
    ['OPTOUT', 'OPTOUT'],
    ['optout?', 'OPTOUT'],
    ['REVOKE', 'REVOKE'],
    ['"revoke"', 'REVOKE'],
  ])('opt-out %j', (body, keyword) => {
    it(`opts the user out, records ${keyword} and sends exactly one confirmation, never a reply`, async () => {
      const phone = nextPhone();
      const inbound = await text(phone, body);

      const user = await repo.users().findOneByOrFail({ phoneNumber: phone });
      expect(user.optedOut).toBe(true);
      expect(user.optedOutAt).toBeInstanceOf(Date);
      expect(inbound.kind).toBe('consent');

      const events = await repo.events().findBy({ userId: user.id });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'opt_out', source: 'sms', keyword, messageId: inbound.id });

      const confirmations = await confirmationsOf(user.id);
      expect(confirmations).toHaveLength(1);
      const confirmation = await settled(confirmations[0]?.id ?? '');
      expect(confirmation.status).toBe('delivered');
      expect(confirmation.content).toMatch(/^Sprout: You're unsubscribed/);
      expect(confirmation.content).toContain('START');
      expect(events[0]?.replyMessageId).toBe(confirmation.id);
      expect(h.twilio.sent.filter((m) => m.to === phone).map((m) => m.body)).toEqual([confirmation.content]);

      expect(await inboundJobOf(inbound.id)).toBeUndefined();
      expect(await repo.messages().countBy({ userId: user.id })).toBe(2);
      expect(confirmation.createdAt.getTime()).toBeGreaterThan(inbound.createdAt.getTime());
      expect(user.totalMessages).toBe(2);
      await expectCountersAgree(user.id);
    });
  });

  it('orders each confirmation after its keyword, so the thread and the last message read right', async () => {
    const phone = nextPhone();
    const question = await text(phone, 'When do I plant garlic?');
    const stop = await text(phone, 'STOP');
    const help = await text(phone, 'HELP');
    const start = await text(phone, 'START');
    const thread = await repo.messages().find({
      where: { conversationId: question.conversationId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    expect(thread.map((m) => [m.direction, m.kind])).toEqual([
      ['inbound', 'reply'],
      ['inbound', 'consent'],
      ['outbound', 'consent'],
      ['inbound', 'consent'],
      ['outbound', 'consent'],
      ['inbound', 'consent'],
      ['outbound', 'consent'],
    ]);
    expect(thread.map((m) => m.id).filter((id) => [stop.id, help.id, start.id].includes(id))).toEqual([
      stop.id,
      help.id,
      start.id,
    ]);
    const times = thread.map((m) => m.createdAt.getTime());
    expect(new Set(times).size).toBe(times.length);
    const last = thread[thread.length - 1];
    expect(last?.content).toMatch(/^Sprout: You're subscribed/);
    const conversation = await h.db.dataSource
      .getRepository(Conversation)
      .findOneByOrFail({ id: question.conversationId });
    expect(conversation.lastMessageAt).toEqual(last?.createdAt);
    expect(conversation.messageCount).toBe(7);
    await expectCountersAgree(question.userId);
  });

  it.each(['stop the aphids from eating my kale', 'Can I cancel the compost order?', 'end of season tips?'])(
    'treats %j as a gardening question: it goes to sms.inbound',
    async (body) => {
      const phone = nextPhone();
      const inbound = await text(phone, body);
      expect(inbound.kind).toBe('reply');
      expect((await inboundJobOf(inbound.id))?.data).toEqual({ messageId: inbound.id });
      const user = await repo.users().findOneByOrFail({ phoneNumber: phone });
      expect(user.optedOut).toBe(false);
      expect(await repo.events().countBy({ userId: user.id })).toBe(0);
      expect(await confirmationsOf(user.id)).toHaveLength(0);
    },
  );

  it.each([
    ['START', 'START'],
    ['unstop', 'UNSTOP'],
    ['Yes!', 'YES'],
  ])('opts an opted-out user back in with %j and confirms once', async (body, keyword) => {
    const phone = nextPhone();
    await text(phone, 'STOP');
    const inbound = await text(phone, body);

    const user = await repo.users().findOneByOrFail({ phoneNumber: phone });
    expect(user.optedOut).toBe(false);
    expect(user.optedOutAt).toBeNull();
    const events = await repo.events().find({ where: { userId: user.id }, order: { createdAt: 'ASC' } });
    expect(events.map((e) => [e.type, e.keyword])).toEqual([
      ['opt_out', 'STOP'],
      ['opt_in', keyword],
    ]);
    expect(events[1]?.messageId).toBe(inbound.id);
    const confirmations = await confirmationsOf(user.id);
    expect(confirmations).toHaveLength(2);
    const optIn = await settled(confirmations[1]?.id ?? '');
    expect(optIn.status).toBe('delivered');
    expect(optIn.content).toMatch(/^Sprout: You're subscribed/);
    expect(optIn.content).toContain('STOP');
    expect(optIn.createdAt.getTime()).toBeGreaterThan(inbound.createdAt.getTime());
    expect(await inboundJobOf(inbound.id)).toBeUndefined();
    await expectCountersAgree(user.id);

    // Subscribed again: replies go out.
    const reply = await queueReplyTo(user, 'Plant peas as soon as the soil can be worked.');
    expect((await settled(reply.id)).status).toBe('delivered');
  });

  it.each(['HELP', 'help', 'Info', ' INFO? '])(
    'answers %j with the program, what it does, how to opt out, rates and a contact',
    async (body) => {
      const phone = nextPhone();
      const inbound = await text(phone, body);
      const user = await repo.users().findOneByOrFail({ phoneNumber: phone });
      expect(user.optedOut).toBe(false);
      const [event] = await repo.events().findBy({ userId: user.id });
      expect(event).toMatchObject({ type: 'help', source: 'sms', messageId: inbound.id });

      const confirmations = await confirmationsOf(user.id);
      expect(confirmations).toHaveLength(1);
      const help = await settled(confirmations[0]?.id ?? '');
      expect(help.status).toBe('delivered');
      expect(help.content).toMatch(/^Sprout: /);
      expect(help.content).toContain('gardening advice');
      expect(help.content).toContain('Reply STOP to opt out');
      expect(help.content).toContain('Msg & data rates may apply');
      expect(help.content).toContain(CONTACT_EMAIL);
      expect(help.encoding).toBe('GSM-7');
      expect(help.segments).toBeLessThanOrEqual(2);
      expect(h.twilio.sent.filter((m) => m.to === phone).map((m) => m.body)).toEqual([help.content]);
      expect(help.createdAt.getTime()).toBeGreaterThan(inbound.createdAt.getTime());
      expect(await inboundJobOf(inbound.id)).toBeUndefined();
      await expectCountersAgree(user.id);
    },
  );

  it('applies a keyword once and confirms once when Twilio repeats the webhook', async () => {
    const phone = nextPhone();
    const sid = nextSid();
    for (let i = 0; i < 3; i += 1) await text(phone, 'STOP', sid);
    await Promise.all([text(phone, 'STOP', sid), text(phone, 'STOP', sid)]);

    const user = await repo.users().findOneByOrFail({ phoneNumber: phone });
    expect(await repo.events().countBy({ userId: user.id })).toBe(1);
    const confirmations = await confirmationsOf(user.id);
    expect(confirmations).toHaveLength(1);
    await settled(confirmations[0]?.id ?? '');
    expect(h.twilio.sent.filter((m) => m.to === phone)).toHaveLength(1);
    expect(await repo.messages().countBy({ userId: user.id, direction: 'inbound' })).toBe(1);
    await expectCountersAgree(user.id);
  });

  it('sends an opted-out user nothing else, whatever queued it', async () => {
    const phone = nextPhone();
    await text(phone, 'STOP');
    const user = await repo.users().findOneByOrFail({ phoneNumber: phone });
    const [optOutConfirmation] = await confirmationsOf(user.id);
    await settled(optOutConfirmation?.id ?? '');

    // A reply the pipeline had already queued, and a survey message, both reach sms.outbound.
    for (const queued of [
      await queueReplyTo(user, 'Water deeply once a week.'),
      await queueReplyTo(user, 'How is your garden? https://sprout.example/s/abc', 'survey'),
    ]) {
      expect(await settled(queued.id)).toMatchObject({
        status: 'failed',
        errorMessage: OPTED_OUT_ERROR_MESSAGE,
        providerSid: null,
      });
    }

    // HELP while opted out is answered all the same (carriers require it); it opts nobody in.
    await text(phone, 'HELP');
    const [, helpReply] = await confirmationsOf(user.id);
    const help = await settled(helpReply?.id ?? '');
    expect(help.status).toBe('delivered');

    // A non-keyword text is stored and handed to the pipeline, which answers opted-out users nothing.
    const question = await text(phone, 'When do I plant garlic?');
    expect(await inboundJobOf(question.id)).toBeDefined();

    expect(h.twilio.sent.filter((m) => m.to === phone).map((m) => m.body)).toEqual([
      optOutConfirmation?.content,
      help.content,
    ]);
    expect((await repo.users().findOneByOrFail({ id: user.id })).optedOut).toBe(true);
  });

  it('confirms an opt-out once: a repeated STOP from an opted-out user is recorded, not confirmed', async () => {
    const phone = nextPhone();
    await text(phone, 'STOP');
    const first = await repo.users().findOneByOrFail({ phoneNumber: phone });
    const quit = await text(phone, 'quit');
    const again = await text(phone, 'Stop texting me!');
    const user = await repo.users().findOneByOrFail({ phoneNumber: phone });
    expect(user.optedOutAt?.getTime()).toBe(first.optedOutAt?.getTime());
    const confirmations = await confirmationsOf(user.id);
    expect(confirmations).toHaveLength(1);
    expect((await settled(confirmations[0]?.id ?? '')).status).toBe('delivered');
    expect([quit.kind, again.kind]).toEqual(['consent', 'consent']);
    expect(await inboundJobOf(quit.id)).toBeUndefined();
    expect(await inboundJobOf(again.id)).toBeUndefined();
    const events = await repo.events().find({ where: { userId: user.id }, order: { createdAt: 'ASC' } });
    expect(events.map((e) => [e.type, e.keyword, e.replyMessageId])).toEqual([
      ['opt_out', 'STOP', confirmations[0]?.id],
      ['opt_out', 'QUIT', null],
      ['opt_out', 'STOP TEXTING ME', null],
    ]);
    expect(h.twilio.sent.filter((m) => m.to === phone)).toHaveLength(1);
    await expectCountersAgree(user.id);
  });

  describe('Twilio error 21610 (the recipient opted out at the carrier)', () => {
    it('on send: fails the message without retrying and opts the user out', async () => {
      const phone = nextPhone();
      h.twilio.optOut(phone);
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: phone });
      await queues().enqueue('sms.outbound', { messageId: reply.id });

      const failed = await settled(reply.id);
      expect(failed).toMatchObject({ status: 'failed', errorCode: '21610' });
      expect(failed.errorMessage).toBe('Attempt to send to unsubscribed recipient');
      const job = await queues().queue('sms.outbound').getJob(`outbound-${reply.id}`);
      expect(job?.attemptsMade).toBe(1);

      const user = await repo.users().findOneByOrFail({ phoneNumber: phone });
      expect(user.optedOut).toBe(true);
      expect(user.optedOutAt).toBeInstanceOf(Date);
      const events = await repo.events().findBy({ userId: user.id });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type: 'opt_out',
        source: 'provider',
        keyword: null,
        messageId: reply.id,
        replyMessageId: null,
      });
      expect(h.twilio.sent).toHaveLength(0);
      expect(await confirmationsOf(user.id)).toHaveLength(0);
    });

    it('in a status callback: stores the error and opts the user out once', async () => {
      const phone = nextPhone();
      h.twilio.setOutcomeFor(phone, { status: 'undelivered', errorCode: 21610 });
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: phone });
      await queues().enqueue('sms.outbound', { messageId: reply.id });

      const undelivered = await eventually(async () => {
        const m = await repo.messages().findOneByOrFail({ id: reply.id });
        return m.status === 'undelivered' ? m : undefined;
      }, 'the 21610 callback');
      expect(undelivered.errorCode).toBe('21610');
      expect(undelivered.errorMessage).toBe('Attempt to send to unsubscribed recipient');
      const user = await repo.users().findOneByOrFail({ phoneNumber: phone });
      expect(user.optedOut).toBe(true);
      expect(await repo.events().findBy({ userId: user.id })).toEqual([
        expect.objectContaining({ type: 'opt_out', source: 'provider', messageId: reply.id }),
      ]);

      // The same callback again (Twilio retries) records nothing new.
      const params = {
        MessageSid: undelivered.providerSid ?? '',
        MessageStatus: 'undelivered',
        ErrorCode: '21610',
      };
      const statusUrl = `${h.baseUrl}/webhooks/twilio/status`;
      const response = await fetch(statusUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'X-Twilio-Signature': h.twilio.signWebhook(statusUrl, params),
        },
        body: new URLSearchParams(params).toString(),
      });
      expect(response.status).toBe(204);
      const { jobId } = await queues().enqueue('sms.status', {
        callbacks: [{ providerSid: params.MessageSid, status: 'failed', errorCode: '21610' }],
      });
      await eventually(
        async () =>
          (await queues().queue('sms.status').getJob(jobId))?.finishedOn !== undefined ? true : undefined,
        'the repeated 21610 status job',
      );
      expect(await repo.events().countBy({ userId: user.id })).toBe(1);
    });
  });
});
