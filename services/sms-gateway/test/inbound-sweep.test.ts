import { AwaitingReply, Message, recordInbound, replyIdFor } from '@sprout/domain';
import { recordReplyTo } from '@sprout/testing';
import { JobQueues } from '@sprout/platform';
import { answerComplianceKeyword } from '@sprout/sms';
import { type Job, Worker } from 'bullmq';
import { INBOUND_SWEEP_SCHEDULER } from '../src/inbound-sweep/inbound-sweep.processor';
import { InboundSweepService, type SweepResult } from '../src/inbound-sweep/inbound-sweep.service';
import { type GatewayHarness, eventually, nextPhone, startGateway } from './harness';

const MAX_AGE_MS = 3 * 60 * 60_000;
const MAX_ATTEMPTS = 2;
const NOTHING: SweepResult = { enqueued: 0, retried: 0, inQueue: 0, settled: 0, abandoned: 0, expired: 0 };

let sidCounter = 0;

/**
 * The inbound sweep against real Postgres and Redis. It reads only the awaiting-replies outbox:
 * a text the webhook stored whose job was never added (sms-gateway killed between the commit and
 * the add) is enqueued again and answered once, a job that failed for good is retried a bounded
 * number of times, and texts nobody owes an answer (a seeded database) get nothing. sms.inbound is
 * answered by a stand-in for ai-responder with the pipeline's idempotency (reply id derived from
 * the inbound id, written once with recordOutbound, which settles the row, then sms.outbound); the
 * gateway's own worker sends through the fake Twilio.
 */
describe('inbound sweep', () => {
  let h: GatewayHarness;
  let answerer: Worker;
  let answererConnection: ReturnType<GatewayHarness['redis']['connection']['duplicate']>;
  const answered = new Map<string, number>();
  /** Texts whose job throws (a bug, a database error) while listed. */
  const failing = new Set<string>();

  const queues = (): JobQueues => h.gateway.app.get(JobQueues);
  const sweeps = (): InboundSweepService => h.gateway.app.get(InboundSweepService);
  const sweep = (now?: Date): Promise<SweepResult> => sweeps().sweep(now);
  // A redriven row waits SMS_INBOUND_SWEEP_AFTER_MS (30 s) before another attempt: sweeps this far apart.
  const minutesLater = (minutes: number): Date => new Date(Date.now() + minutes * 60_000);
  const sentTo = (phone: string): number => h.twilio.sent.filter((m) => m.to === phone).length;
  const rowOf = (messageId: string) => h.db.dataSource.getRepository(AwaitingReply).findOneBy({ messageId });
  const stateOf = (jobId: string) => queues().queue('sms.inbound').getJobState(jobId);

  /** What the webhook stores (recordInbound, owed an answer), with no job added, `ageMs` ago. */
  const storeText = async (phone: string, ageMs: number, body = 'How deep do I plant garlic?') => {
    const record = await recordInbound(h.db.dataSource, {
      from: { phoneNumber: phone },
      content: body,
      providerSid: `SM${String(++sidCounter).padStart(32, '0')}`,
      at: new Date(Date.now() - ageMs),
      consent: answerComplianceKeyword(body, 'hello@sprout.example'),
      idleTimeoutMs: 6 * 60 * 60_000,
      awaitingReply: true,
    });
    if (record === null) throw new Error('not recorded');
    return record;
  };

  const replyOf = async (inboundId: string): Promise<boolean> =>
    (await recordReplyTo(h.db.dataSource, inboundId)) !== null;

  /** A job that has used up its attempts: in BullMQ's failed set under the webhook's id. */
  const failedJob = async (messageId: string): Promise<void> => {
    failing.add(messageId);
    const jobId = `inbound-${messageId}`;
    await queues().queue('sms.inbound').add('sms.inbound', { messageId }, { jobId, attempts: 1 });
    await eventually(async () => ((await stateOf(jobId)) === 'failed' ? true : undefined), 'the job to fail');
  };

  beforeAll(async () => {
    h = await startGateway(
      { callbackDelayMs: 5 },
      { smsInboundSweepEveryMs: 60 * 60_000, smsInboundSweepMaxAttempts: MAX_ATTEMPTS },
    );
    // The tests sweep when they choose; the scheduled job is tested on its own below.
    await queues().queue('sms.inbound-sweep').removeJobScheduler(INBOUND_SWEEP_SCHEDULER);
    answererConnection = h.redis.connection.duplicate({ maxRetriesPerRequest: null });
    answerer = new Worker(
      'sms.inbound',
      async (job: Job<{ messageId: string }>) => {
        const { messageId } = job.data;
        answered.set(messageId, (answered.get(messageId) ?? 0) + 1);
        if (failing.has(messageId)) throw new Error('the pipeline failed');
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

  it('sends nothing to a seeded database: recent texts with no reply are owed nothing', async () => {
    // As the seed writes them (one INSERT per table, never record_inbound): 112 texts from Twilio
    // in the last ten minutes, none answered.
    await h.db.dataSource.query(
      `WITH people AS (
         INSERT INTO users (phone_number)
         SELECT '+1212555' || lpad((100 + n)::text, 4, '0') FROM generate_series(0, 99) n
         RETURNING id
       ),
       talks AS (
         INSERT INTO conversations (user_id, started_at, last_message_at, message_count)
         SELECT id, now() - interval '10 minutes', now(), 2 FROM people
         RETURNING id, user_id
       ),
       numbered AS (SELECT row_number() OVER () - 1 AS i, id, user_id FROM talks)
       INSERT INTO messages (user_id, conversation_id, direction, content, status, kind, provider_sid,
                             created_at, updated_at)
       SELECT t.user_id, t.id, 'inbound', 'When do I plant garlic?', 'received', 'reply', 'SMseed' || md5(n::text),
              now() - n * interval '5 seconds', now()
         FROM generate_series(0, 111) n JOIN numbered t ON t.i = n % 100`,
    );
    const seeded = await h.db.dataSource.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM messages WHERE direction = 'inbound' AND created_at > now() - interval '11 minutes'`,
    );
    expect(seeded[0]?.n).toBe(112);

    expect(await sweep()).toEqual(NOTHING);
    expect(
      await queues().queue('sms.inbound').getJobCounts('waiting', 'active', 'delayed', 'completed'),
    ).toEqual({ waiting: 0, active: 0, delayed: 0, completed: 0 });
    expect(h.twilio.sent).toHaveLength(0);
  });

  it('enqueues a text stored with no job, which is then answered and sent once', async () => {
    const phone = nextPhone();
    const text = await storeText(phone, 60_000);
    // Younger than SMS_INBOUND_SWEEP_AFTER_MS: its webhook may still be adding the job.
    const fresh = await storeText(nextPhone(), 1_000);

    expect(await sweep()).toEqual({ ...NOTHING, enqueued: 1 });
    expect(await queues().queue('sms.inbound').getJob(`inbound-${text.messageId}`)).toBeDefined();
    expect(await queues().queue('sms.inbound').getJob(`inbound-${fresh.messageId}`)).toBeUndefined();
    await eventually(async () => (sentTo(phone) >= 1 ? true : undefined), 'the reply to be sent');

    // Answered: its row is settled and the next sweeps find nothing to do for it.
    expect(await rowOf(text.messageId)).toBeNull();
    expect((await sweep()).enqueued).toBe(0);
    expect(answered.get(text.messageId)).toBe(1);
    expect(sentTo(phone)).toBe(1);
    await h.db.dataSource.getRepository(Message).delete({ id: fresh.messageId });
  });

  it('runs as a scheduled job of its own queue, once per interval for the deployment', async () => {
    const phone = nextPhone();
    const text = await storeText(phone, 60_000);
    await queues().schedule('sms.inbound-sweep', INBOUND_SWEEP_SCHEDULER, 1_000, {});
    try {
      expect(
        await queues().queue('sms.inbound-sweep').getJobScheduler(INBOUND_SWEEP_SCHEDULER),
      ).toMatchObject({ every: 1_000 });
      await eventually(
        async () => (sentTo(phone) >= 1 ? true : undefined),
        'the scheduled sweep to send the reply',
      );
      const done = await queues().queue('sms.inbound-sweep').getJobs(['completed']);
      expect(done.map((job) => (job.returnvalue as SweepResult).enqueued)).toContain(1);
    } finally {
      await queues().queue('sms.inbound-sweep').removeJobScheduler(INBOUND_SWEEP_SCHEDULER);
    }
    expect(answered.get(text.messageId)).toBe(1);
    expect(sentTo(phone)).toBe(1);
  });

  it('adds one job when replicas sweep at once, and sends one reply', async () => {
    const phone = nextPhone();
    const text = await storeText(phone, 45_000);
    const results = await Promise.all([sweep(), sweep(), sweep()]);
    expect(results.reduce((n, r) => n + r.enqueued, 0)).toBe(1);
    await eventually(async () => (sentTo(phone) >= 1 ? true : undefined), 'the reply to be sent');
    await Promise.all([sweep(), sweep()]);
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
      expect(await sweep()).toEqual({ ...NOTHING, inQueue: 1 });
      expect(await inbound.getJobCountByTypes('waiting')).toBe(1);
      expect(await rowOf(text.messageId)).toMatchObject({ attempts: 0 });
      await inbound.resume();
      await eventually(async () => (sentTo(phone) >= 1 ? true : undefined), 'the reply to be sent');
      expect(answered.get(text.messageId)).toBe(1);
      expect(sentTo(phone)).toBe(1);
    } finally {
      await inbound.resume();
    }
  });

  it('retries a job that failed for good, and the retry answers it once', async () => {
    const phone = nextPhone();
    const text = await storeText(phone, 60_000);
    await failedJob(text.messageId);
    failing.delete(text.messageId);

    expect(await sweep()).toEqual({ ...NOTHING, retried: 1 });
    await eventually(async () => (sentTo(phone) >= 1 ? true : undefined), 'the retried reply to be sent');
    expect(await rowOf(text.messageId)).toBeNull();
    expect(await sweep()).toEqual(NOTHING);
    expect(answered.get(text.messageId)).toBe(2);
    expect(sentTo(phone)).toBe(1);
  });

  it('retries a job that keeps failing SMS_INBOUND_SWEEP_MAX_ATTEMPTS times, then gives it up', async () => {
    const phone = nextPhone();
    const text = await storeText(phone, 60_000);
    const jobId = `inbound-${text.messageId}`;
    await failedJob(text.messageId);

    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      expect(await sweep(minutesLater(attempt))).toEqual({ ...NOTHING, retried: 1 });
      expect(await rowOf(text.messageId)).toMatchObject({ attempts: attempt });
      await eventually(
        async () => ((await stateOf(jobId)) === 'failed' ? true : undefined),
        'the retry to fail',
      );
    }
    expect(await sweep(minutesLater(MAX_ATTEMPTS + 1))).toEqual({ ...NOTHING, abandoned: 1 });
    expect(await rowOf(text.messageId)).toBeNull();
    expect(await sweep(minutesLater(MAX_ATTEMPTS + 2))).toEqual(NOTHING);
    expect(await stateOf(jobId)).toBe('failed');
    expect(answered.get(text.messageId)).toBe(1 + MAX_ATTEMPTS);
    expect(sentTo(phone)).toBe(0);
    failing.delete(text.messageId);
  });

  it('gives up on a text whose job is lost again and again', async () => {
    const text = await storeText(nextPhone(), 60_000);
    const inbound = queues().queue('sms.inbound');
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      await inbound.pause();
      try {
        expect(await sweep(minutesLater(attempt))).toEqual({ ...NOTHING, enqueued: 1 });
        // Lost again before it ran (Redis lost it, or it was removed by hand).
        await inbound.remove(`inbound-${text.messageId}`);
      } finally {
        await inbound.resume();
      }
    }
    expect(await sweep(minutesLater(MAX_ATTEMPTS + 1))).toEqual({ ...NOTHING, abandoned: 1 });
    expect(await rowOf(text.messageId)).toBeNull();
    expect(answered.has(text.messageId)).toBe(false);
  });

  it('settles the row of a text whose job completed without settling it', async () => {
    const text = await storeText(nextPhone(), 60_000);
    await queues().enqueue('sms.inbound', { messageId: text.messageId });
    const jobId = `inbound-${text.messageId}`;
    await eventually(async () => ((await stateOf(jobId)) === 'completed' ? true : undefined), 'the job');
    // As a worker from before the outbox would leave it.
    await h.db.dataSource.query(
      `INSERT INTO awaiting_replies (message_id, queue, created_at) VALUES ($1, 'sms.inbound', $2)`,
      [text.messageId, text.createdAt],
    );
    expect(await sweep()).toEqual({ ...NOTHING, settled: 1 });
    expect(await rowOf(text.messageId)).toBeNull();
    expect(answered.get(text.messageId)).toBe(1);
  });

  it("sends a keyword's confirmation whose send job was never added, once", async () => {
    const phone = nextPhone();
    const stop = await storeText(phone, 60_000, 'STOP');
    const confirmation = stop.consent?.replyMessageId ?? '';
    expect(await rowOf(confirmation)).toMatchObject({ queue: 'sms.outbound' });
    // The confirmation is written at the clock's time; as old as its text (a minute ago) here.
    await h.db.dataSource.query(
      `UPDATE awaiting_replies SET created_at = now() - interval '1 minute' WHERE message_id = $1`,
      [confirmation],
    );
    expect(await sweep()).toEqual({ ...NOTHING, enqueued: 1 });
    await eventually(async () => (sentTo(phone) >= 1 ? true : undefined), 'the confirmation to be sent');
    // Sent: its row went with the send.
    await eventually(
      async () => ((await rowOf(confirmation)) === null ? true : undefined),
      'the row to be settled',
    );
    expect(await sweep()).toEqual(NOTHING);
    expect(sentTo(phone)).toBe(1);
    expect(answered.has(stop.messageId)).toBe(false);
  });

  it('leaves a text from an opted-out sender alone', async () => {
    const phone = nextPhone();
    const stop = await storeText(phone, 90_000, 'STOP');
    await h.db.dataSource.query(`DELETE FROM awaiting_replies WHERE message_id = $1`, [
      stop.consent?.replyMessageId,
    ]);
    const after = await storeText(phone, 60_000, 'What about my roses?');
    expect(await rowOf(after.messageId)).toBeNull();
    expect(await sweep()).toEqual(NOTHING);
    expect(await queues().queue('sms.inbound').getJob(`inbound-${after.messageId}`)).toBeUndefined();
  });

  it('leaves a text whose sender opted out and back in since it came', async () => {
    const phone = nextPhone();
    const text = await storeText(phone, 120_000, 'Why are my tomato leaves curling?');
    const stop = await storeText(phone, 110_000, 'STOP');
    const start = await storeText(phone, 100_000, 'START');
    await h.db.dataSource.query(`DELETE FROM awaiting_replies WHERE message_id = ANY($1::uuid[])`, [
      [stop.consent?.replyMessageId, start.consent?.replyMessageId],
    ]);
    expect(await sweep()).toEqual(NOTHING);
    expect(await queues().queue('sms.inbound').getJob(`inbound-${text.messageId}`)).toBeUndefined();
    expect(answered.has(text.messageId)).toBe(false);
  });

  it('gives up on a text older than SMS_INBOUND_SWEEP_MAX_AGE_MS and counts it', async () => {
    const text = await storeText(nextPhone(), MAX_AGE_MS + 60_000);
    expect(await sweep()).toEqual({ ...NOTHING, expired: 1 });
    expect(await rowOf(text.messageId)).toBeNull();
    expect(await queues().queue('sms.inbound').getJob(`inbound-${text.messageId}`)).toBeUndefined();
    expect(await sweep()).toEqual(NOTHING);
  });
});
