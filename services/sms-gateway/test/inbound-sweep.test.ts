import { Message, recordInbound, recordOutbound, replyIdFor, replyIdSql } from '@sprout/domain';
import { JobQueues } from '@sprout/platform';
import { answerComplianceKeyword } from '@sprout/sms';
import { type Job, Worker } from 'bullmq';
import { InboundSweepService } from '../src/inbound-sweep/inbound-sweep.service';
import { type GatewayHarness, eventually, nextPhone, startGateway } from './harness';

const MAX_AGE_MS = 3 * 60 * 60_000;

let sidCounter = 0;

/**
 * The inbound sweep against real Postgres and Redis: a text stored by the webhook whose job was
 * never added (sms-gateway killed between the commit and the add) is enqueued again and answered
 * once; nothing else is touched. sms.inbound is answered by a stand-in for ai-responder with the
 * pipeline's idempotency (reply id derived from the inbound id, written once, then sms.outbound);
 * the gateway's own worker sends through the fake Twilio.
 */
describe('inbound sweep', () => {
  let h: GatewayHarness;
  let answerer: Worker;
  let answererConnection: ReturnType<GatewayHarness['redis']['connection']['duplicate']>;
  const answered = new Map<string, number>();

  const queues = (): JobQueues => h.gateway.app.get(JobQueues);
  const sweeps = (): InboundSweepService => h.gateway.app.get(InboundSweepService);
  const sentTo = (phone: string): number => h.twilio.sent.filter((m) => m.to === phone).length;

  /** What the webhook stores (recordInbound), with no job added, `ageMs` ago. */
  const storeText = async (phone: string, ageMs: number, body = 'How deep do I plant garlic?') => {
    const keyword = answerComplianceKeyword(body, 'hello@sprout.example');
    const record = await recordInbound(h.db.dataSource, {
      from: { phoneNumber: phone },
      content: body,
      providerSid: `SM${String(++sidCounter).padStart(32, '0')}`,
      at: new Date(Date.now() - ageMs),
      consent: keyword,
      idleTimeoutMs: 6 * 60 * 60_000,
    });
    if (record === null) throw new Error('not recorded');
    return record;
  };

  const replyOf = async (inboundId: string, content = 'Plant garlic 2 inches deep.'): Promise<boolean> => {
    const inbound = await h.db.dataSource.getRepository(Message).findOneByOrFail({ id: inboundId });
    const recorded = await recordOutbound(h.db.dataSource, {
      id: replyIdFor(inboundId),
      userId: inbound.userId,
      conversationId: inbound.conversationId,
      inReplyTo: inboundId,
      content,
      kind: 'reply',
      encoding: 'GSM-7',
      segments: 1,
    });
    return recorded !== null;
  };

  beforeAll(async () => {
    h = await startGateway({ callbackDelayMs: 5 }, { smsInboundSweepEveryMs: 60 * 60_000 });
    answererConnection = h.redis.connection.duplicate({ maxRetriesPerRequest: null });
    answerer = new Worker(
      'sms.inbound',
      async (job: Job<{ messageId: string }>) => {
        const { messageId } = job.data;
        answered.set(messageId, (answered.get(messageId) ?? 0) + 1);
        await replyOf(messageId);
        await queues().enqueue('sms.outbound', { messageId: replyIdFor(messageId) });
        return { outcome: 'replied', replyMessageId: replyIdFor(messageId) };
      },
      { connection: answererConnection, prefix: h.redis.prefix },
    );
  });

  afterAll(async () => {
    await answerer?.close();
    answererConnection?.disconnect();
    await h?.close();
  });

  it("computes ai-responder's reply id in SQL", async () => {
    const id = '0d8b9c3e-1f2a-4b5c-8d9e-0f1a2b3c4d5e';
    const rows: Array<{ id: string }> = await h.db.dataSource.query(
      `SELECT ${replyIdSql('$1::uuid')} AS id`,
      [id],
    );
    expect(rows[0]?.id).toBe(replyIdFor(id));
    // What replyIdFor gave for it when ai-responder's replies were first written (2026-11-24).
    expect(rows[0]?.id).toBe('55334e84-2af4-5f31-9ba3-2296b14d9382');
  });

  it('enqueues a text stored with no job, which is then answered and sent once', async () => {
    const phone = nextPhone();
    const text = await storeText(phone, 60_000);
    // Younger than SMS_INBOUND_SWEEP_AFTER_MS: its webhook may still be adding the job.
    const fresh = await storeText(nextPhone(), 1_000);

    const first = await sweeps().sweep();
    expect(first.enqueued).toBe(1);
    expect(await queues().queue('sms.inbound').getJob(`inbound-${text.messageId}`)).toBeDefined();
    expect(await queues().queue('sms.inbound').getJob(`inbound-${fresh.messageId}`)).toBeUndefined();
    await eventually(async () => (sentTo(phone) >= 1 ? true : undefined), 'the reply to be sent');

    // Answered: the next sweeps find nothing to do for it.
    expect((await sweeps().sweep()).enqueued).toBe(0);
    expect(answered.get(text.messageId)).toBe(1);
    expect(sentTo(phone)).toBe(1);
  });

  it('adds one job when replicas sweep at once, and sends one reply', async () => {
    const phone = nextPhone();
    const text = await storeText(phone, 45_000);
    const results = await Promise.all([sweeps().sweep(), sweeps().sweep(), sweeps().sweep()]);
    expect(results.reduce((n, r) => n + r.enqueued + r.inQueue, 0)).toBeGreaterThanOrEqual(1);
    await eventually(async () => (sentTo(phone) >= 1 ? true : undefined), 'the reply to be sent');
    // Run once more after the job finished: the completed job (retained) keeps it from running again.
    await Promise.all([sweeps().sweep(), sweeps().sweep()]);
    const outbound = await queues()
      .queue('sms.outbound')
      .getJob(`outbound-${replyIdFor(text.messageId)}`);
    await eventually(async () => ((await outbound?.isCompleted()) ? true : undefined), 'the send job');
    expect(answered.get(text.messageId)).toBe(1);
    expect(sentTo(phone)).toBe(1);
  });

  it('does not add a second job for a text whose job is still waiting', async () => {
    const inbound = queues().queue('sms.inbound');
    await inbound.pause();
    try {
      const phone = nextPhone();
      const text = await storeText(phone, 60_000);
      await queues().enqueue('sms.inbound', { messageId: text.messageId });
      const result = await sweeps().sweep();
      expect(result).toMatchObject({ enqueued: 0, inQueue: 1 });
      expect(await inbound.getJobCountByTypes('waiting')).toBe(1);
      expect(await (await inbound.getJob(`inbound-${text.messageId}`))?.getState()).toMatch(/waiting|paused/);
      await inbound.resume();
      await eventually(async () => (sentTo(phone) >= 1 ? true : undefined), 'the reply to be sent');
      expect(answered.get(text.messageId)).toBe(1);
      expect(sentTo(phone)).toBe(1);
    } finally {
      await inbound.resume();
    }
  });

  it('leaves an answered text alone', async () => {
    const text = await storeText(nextPhone(), 120_000);
    expect(await replyOf(text.messageId)).toBe(true);
    expect(await sweeps().sweep()).toMatchObject({ enqueued: 0 });
    expect(await queues().queue('sms.inbound').getJob(`inbound-${text.messageId}`)).toBeUndefined();
  });

  it("sends a keyword's confirmation whose send job was never added", async () => {
    const phone = nextPhone();
    const stop = await storeText(phone, 60_000, 'STOP');
    const confirmation = stop.consent?.replyMessageId;
    expect(confirmation).toEqual(expect.any(String));
    // The confirmation is written at the clock's time; as old as its text (a minute ago) here.
    await h.db.dataSource.query(
      `UPDATE messages SET created_at = now() - interval '1 minute' WHERE id = $1`,
      [confirmation],
    );
    const result = await sweeps().sweep();
    expect(result.enqueued).toBe(1);
    await eventually(async () => (sentTo(phone) >= 1 ? true : undefined), 'the confirmation to be sent');
    expect((await sweeps().sweep()).enqueued).toBe(0);
    expect(sentTo(phone)).toBe(1);
    expect(answered.has(stop.messageId)).toBe(false);
  });

  it('leaves a text from an opted-out sender alone', async () => {
    const phone = nextPhone();
    await storeText(phone, 90_000, 'STOP');
    await eventually(async () => ((await sweeps().sweep()).enqueued === 0 ? true : undefined), 'the sweep');
    const after = await storeText(phone, 60_000, 'What about my roses?');
    expect((await sweeps().sweep()).enqueued).toBe(0);
    expect(await queues().queue('sms.inbound').getJob(`inbound-${after.messageId}`)).toBeUndefined();
  });

  it('leaves a text whose sender opted out and back in since it came', async () => {
    const phone = nextPhone();
    const text = await storeText(phone, 120_000, 'Why are my tomato leaves curling?');
    await storeText(phone, 110_000, 'STOP');
    await storeText(phone, 100_000, 'START');
    await eventually(async () => ((await sweeps().sweep()).enqueued === 0 ? true : undefined), 'the sweep');
    expect(await queues().queue('sms.inbound').getJob(`inbound-${text.messageId}`)).toBeUndefined();
    expect(answered.has(text.messageId)).toBe(false);
  });

  it('leaves a text older than the window and counts it', async () => {
    const text = await storeText(nextPhone(), MAX_AGE_MS + 60_000);
    const result = await sweeps().sweep();
    expect(result.enqueued).toBe(0);
    expect(result.expired).toBe(1);
    expect(await queues().queue('sms.inbound').getJob(`inbound-${text.messageId}`)).toBeUndefined();
  });
});
