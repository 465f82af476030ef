import { Message, updateStatusesIfStill } from '@sprout/domain';
import { JobQueues } from '@sprout/platform';
import { DeliveryStatusService } from '../src/delivery-status/delivery-status.service';
import { type GatewayHarness, eventually, insertQueuedReply, nextPhone, startGateway } from './harness';

describe('delivery.check: re-reading statuses from Twilio', () => {
  let h: GatewayHarness;
  // Each check runs in its own minute bucket (the job id is conversation id + minute).
  let minute = 0;

  beforeAll(async () => {
    // No callbacks: only a delivery check can learn what happened to a message.
    h = await startGateway({ callbackDelayMs: 5, disableCallbacks: true });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => h.twilio.reset());

  const messages = () => h.db.dataSource.getRepository(Message);
  const check = (conversationId: string) =>
    h.gateway.app
      .get(JobQueues)
      .enqueueAndWait(
        'delivery.check',
        { conversationId, requestedAt: new Date(Date.UTC(2030, 0, 1, 0, minute++)).toISOString() },
        15_000,
      );

  /** Sends a reply and waits until Twilio accepted it (stored sid, status as Twilio answered). */
  const sendReply = async (phone: string): Promise<Message> => {
    const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: phone });
    await h.gateway.app.get(JobQueues).enqueue('sms.outbound', { messageId: reply.id });
    return eventually(async () => {
      const m = await messages().findOneByOrFail({ id: reply.id });
      return m.providerSid === null ? undefined : m;
    }, 'the reply to be sent');
  };

  it("updates a conversation's open messages from Twilio's current status", async () => {
    const sent = await sendReply(nextPhone());
    expect(sent.status).toBe('queued');
    const remote = await eventually(async () => {
      const m = h.twilio.getMessage(sent.providerSid ?? '');
      return m?.status === 'delivered' ? m : undefined;
    }, 'Twilio to deliver the message');
    expect(remote.status).toBe('delivered');

    expect(await check(sent.conversationId)).toEqual({ changed: 1, checked: 1 });
    const updated = await messages().findOneByOrFail({ id: sent.id });
    expect(updated.status).toBe('delivered');
    expect(updated.deliveredAt).not.toBeNull();

    // Final now: a second check reads nothing.
    expect(await check(sent.conversationId)).toEqual({ changed: 0, checked: 0 });
  });

  it("stores Twilio's error code and message of a failed message", async () => {
    const phone = nextPhone();
    h.twilio.setOutcomeFor(phone, { status: 'undelivered', errorCode: 30006 });
    const sent = await sendReply(phone);
    await eventually(
      async () => (h.twilio.getMessage(sent.providerSid ?? '')?.status === 'undelivered' ? true : undefined),
      'Twilio to give up on the message',
    );
    expect(await check(sent.conversationId)).toEqual({ changed: 1, checked: 1 });
    expect(await messages().findOneByOrFail({ id: sent.id })).toMatchObject({
      status: 'undelivered',
      errorCode: '30006',
      errorMessage: 'Landline or unreachable carrier',
    });
  });

  it('never moves a status backwards', async () => {
    const sent = await sendReply(nextPhone());
    await eventually(
      async () => (h.twilio.getMessage(sent.providerSid ?? '')?.status === 'delivered' ? true : undefined),
      'Twilio to deliver the message',
    );
    // Our record is ahead of what Twilio answers: it stays.
    await messages().update({ id: sent.id }, { status: 'sent' });
    const remote = h.twilio.getMessage(sent.providerSid ?? '');
    if (remote === undefined) throw new Error('Twilio lost the message');
    remote.status = 'queued';
    expect(await check(sent.conversationId)).toEqual({ changed: 0, checked: 1 });
    expect((await messages().findOneByOrFail({ id: sent.id })).status).toBe('sent');
  });

  it('applies concurrent callbacks of one message forward-only: the furthest status wins', async () => {
    const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
    const providerSid = `SMcas${reply.id.replaceAll('-', '').slice(0, 29)}`;
    await messages().update({ id: reply.id }, { providerSid, status: 'queued' });
    const statuses = [
      'sent',
      'delivered',
      'sending',
      'sent',
      'queued',
      'delivered',
      'sent',
      'sending',
    ] as const;
    const service = h.gateway.app.get(DeliveryStatusService);
    const outcomes = await Promise.all(
      [...statuses, ...statuses, ...statuses].map((status) => service.apply({ providerSid, status })),
    );
    expect(outcomes.filter((o) => o === 'unknown-message')).toEqual([]);
    expect(outcomes.filter((o) => o === 'updated').length).toBeGreaterThanOrEqual(1);
    const final = await messages().findOneByOrFail({ id: reply.id });
    expect(final.status).toBe('delivered');
    expect(final.sentAt).not.toBeNull();
    expect(final.deliveredAt).not.toBeNull();
    // Late callbacks after the final status change nothing.
    expect(await service.apply({ providerSid, status: 'sent' })).toBe('unchanged');
  });

  it("applies callbacks of many messages arriving together, each message's own forward-only", async () => {
    const replies = await Promise.all(
      [0, 1, 2, 3].map(() => insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() })),
    );
    const sids = replies.map((reply) => `SMbat${reply.id.replaceAll('-', '').slice(0, 29)}`);
    await Promise.all(
      replies.map((reply, i) =>
        messages().update({ id: reply.id }, { providerSid: sids[i], status: 'queued' }),
      ),
    );
    const [a = '', b = '', c = '', d = ''] = sids;
    const service = h.gateway.app.get(DeliveryStatusService);
    const outcomes = await Promise.all([
      service.apply({ providerSid: a, status: 'delivered' }),
      service.apply({ providerSid: b, status: 'sent' }),
      service.apply({ providerSid: a, status: 'sent' }),
      service.apply({ providerSid: 'SMbatunknown', status: 'delivered' }),
      service.apply({
        providerSid: c,
        status: 'undelivered',
        errorCode: '30003',
        errorMessage: 'Unreachable',
      }),
      service.apply({ providerSid: b, status: 'sent' }),
      service.apply({ providerSid: d, status: 'sent' }),
      service.apply({ providerSid: d, status: 'delivered' }),
    ]);
    expect(outcomes).toEqual([
      'updated',
      'updated',
      'unchanged',
      'unknown-message',
      'updated',
      'unchanged',
      'updated',
      'updated',
    ]);
    const stored = await Promise.all(replies.map((reply) => messages().findOneByOrFail({ id: reply.id })));
    expect(stored.map((m) => m.status)).toEqual(['delivered', 'sent', 'undelivered', 'delivered']);
    expect(stored.map((m) => m.sentAt !== null)).toEqual([true, true, false, true]);
    expect(stored.map((m) => m.deliveredAt !== null)).toEqual([true, false, false, true]);
    expect([stored[2]?.errorCode, stored[2]?.errorMessage]).toEqual(['30003', 'Unreachable']);
  });

  it('writes a batched change only while the status is still the one read', async () => {
    const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
    const change = { id: reply.id, status: 'sent', sentAt: new Date(), deliveredAt: null } as const;
    const errors = { errorCode: null, errorMessage: null };
    // Read as "sending", but the row says "queued": another writer got there first.
    expect(
      await updateStatusesIfStill(h.db.dataSource, [{ ...change, ...errors, expected: 'sending' }]),
    ).toEqual(new Set());
    expect((await messages().findOneByOrFail({ id: reply.id })).status).toBe('queued');
    expect(
      await updateStatusesIfStill(h.db.dataSource, [{ ...change, ...errors, expected: 'queued' }]),
    ).toEqual(new Set([reply.id]));
    expect((await messages().findOneByOrFail({ id: reply.id })).status).toBe('sent');
  });

  it('skips a message Twilio does not know and checks nothing for a conversation without open messages', async () => {
    const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
    await messages().update(
      { id: reply.id },
      { providerSid: 'SMunknown0000000000000000000000001', status: 'sent' },
    );
    expect(await check(reply.conversationId)).toEqual({ changed: 0, checked: 0 });
    expect((await messages().findOneByOrFail({ id: reply.id })).status).toBe('sent');

    const unsent = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
    expect(await check(unsent.conversationId)).toEqual({ changed: 0, checked: 0 });
  });
});
