// Per-sender reply limits: one phone texting far faster than a person gets the limit's replies,
// one notice, then silence (no model call) until the window passes, counted for every replica at
// once; other senders and test users are not affected. The clock is the pipeline's `now`, moved
// by the test, never waited for.
import { AwaitingReply, Message, SenderLimit, User } from '@sprout/domain';
import { Metrics, loadConfig } from '@sprout/platform';
import { analyzeSms } from '@sprout/sms';
import { aiResponderConfig } from '../src/config';
import { PipelineService } from '../src/pipeline/pipeline.service';
import { SenderLimits, limitNotice, waitInWords } from '../src/pipeline/sender-limits';
import { type Harness, type Responder, newPhone, startHarness, storeInbound } from './harness';

const QUESTIONS = [
  'When should I plant tomatoes in 97201?',
  'How often should I water basil?',
  'Why are my squash leaves turning white?',
  'What is the best mulch for strawberries?',
];
const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;

describe('per-sender reply limits', () => {
  let h: Harness;
  let second: Responder;
  beforeAll(async () => {
    h = await startHarness({
      openai: true,
      config: { senderRepliesPerMinute: 5, senderRepliesPerHour: 8, senderRepliesPerDay: 100 },
    });
    // A second replica: the counting is shared, not per process.
    second = await h.startResponder();
  });
  afterAll(async () => {
    await h?.close();
  });

  const fake = () => {
    if (h.openai === undefined) throw new Error('no fake OpenAI');
    return h.openai;
  };
  const outbound = (userId: string) =>
    h.db.dataSource
      .getRepository(Message)
      .find({ where: { userId, direction: 'outbound' }, order: { createdAt: 'ASC' } });
  const limitedCount = async (responder: Responder, window: string): Promise<number> => {
    const metric = await responder.app
      .get(Metrics)
      .registry.getSingleMetric('sprout_sender_limited_total')
      ?.get();
    return metric?.values.find((v) => v.labels.window === window)?.value ?? 0;
  };
  const store = async (phone: string, n: number, options: { isTestUser?: boolean } = {}) => {
    const texts = [];
    for (let i = 0; i < n; i += 1) {
      texts.push(await storeInbound(h.db, QUESTIONS[i % QUESTIONS.length] ?? '', { phone, ...options }));
    }
    return texts;
  };
  /** Stores `n` texts from `phone` and answers them all at once at `at`, split between the replicas. */
  const burst = async (phone: string, n: number, at: Date, options: { isTestUser?: boolean } = {}) => {
    const texts = await store(phone, n, options);
    const results = await Promise.all(
      texts.map((text, i) =>
        (i % 2 === 0 ? h.responder : second).app.get(PipelineService).reply(text.id, undefined, at),
      ),
    );
    return { texts, results };
  };
  /** Stores `n` texts from `phone` and answers them one after the other, `stepMs` apart from `at`. */
  const series = async (phone: string, n: number, at: number, stepMs: number) => {
    const results = [];
    for (const [i, text] of (await store(phone, n)).entries()) {
      results.push(
        await h.responder.app.get(PipelineService).reply(text.id, undefined, new Date(at + i * stepMs)),
      );
    }
    return results;
  };

  it('answers 60 texts from one phone with the limit of replies and one notice, and calls the model only for the replies', async () => {
    fake().reset();
    const phone = newPhone();
    const t0 = new Date();
    const before = (await limitedCount(h.responder, 'minute')) + (await limitedCount(second, 'minute'));
    const { texts, results } = await burst(phone, 60, t0);

    const user = await h.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
    const sent = await outbound(user.id);
    const notices = sent.filter((m) => m.kind === 'system');
    expect(sent.filter((m) => m.kind !== 'system')).toHaveLength(5);
    expect(notices).toHaveLength(1);
    expect(fake().completions).toHaveLength(5);
    expect(results.filter((r) => r.outcome === 'replied')).toHaveLength(6);
    expect(results.filter((r) => r.outcome === 'rate-limited')).toHaveLength(54);

    // The notice: short, GSM-7, one segment, saying when replies resume.
    const notice = notices[0];
    expect(notice?.content).toBe(
      "You've sent a lot of messages, so I'm taking a short break. I'll answer again in about a minute.",
    );
    expect(analyzeSms(notice?.content ?? '')).toEqual(
      expect.objectContaining({ encoding: 'GSM-7', segments: 1 }),
    );
    expect(notice?.status).toBe('queued');

    // Every text is stored and settled: nothing is left for the inbound sweep to answer.
    expect(
      await h.db.dataSource.getRepository(Message).countBy({ userId: user.id, direction: 'inbound' }),
    ).toBe(60);
    const owed = await h.db.dataSource
      .getRepository(AwaitingReply)
      .countBy(texts.map((t) => ({ messageId: t.id })));
    expect(owed).toBe(0);

    // What admins read: since when, until when, how many texts went unanswered.
    const stretch = await h.db.dataSource.getRepository(SenderLimit).findOneByOrFail({ userId: user.id });
    expect(stretch).toMatchObject({ limitWindow: 'minute', replyLimit: 5, refused: 55 });
    expect(stretch.limitedUntil.getTime()).toBe(t0.getTime() + MINUTE_MS);
    const after = (await limitedCount(h.responder, 'minute')) + (await limitedCount(second, 'minute'));
    expect(after - before).toBe(55);
  });

  it('answers another sender texting at the same time', async () => {
    const t0 = new Date();
    const [flood, other] = await Promise.all([burst(newPhone(), 20, t0), burst(newPhone(), 3, t0)]);
    expect(flood.results.filter((r) => r.outcome === 'rate-limited')).toHaveLength(14);
    expect(other.results.map((r) => r.outcome)).toEqual(['replied', 'replied', 'replied']);
  });

  it('answers again once the window has passed, and a new stretch gets its own notice', async () => {
    const phone = newPhone();
    const t0 = Date.now();
    // Every 4 s: replies at 0, 4, 8, 12 and 16 s; the notice at 20 s; nothing at 24 s.
    expect((await series(phone, 7, t0, 4 * SECOND_MS)).map((r) => r.outcome)).toEqual([
      ...Array(6).fill('replied'),
      'rate-limited',
    ]);
    const user = await h.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
    expect((await outbound(user.id)).map((m) => m.kind)).toEqual([...Array(5).fill('reply'), 'system']);
    expect((await outbound(user.id)).at(-1)?.content).toContain('in about a minute');

    // Still inside the minute of the first reply: silence.
    const pipeline = h.responder.app.get(PipelineService);
    const early = await storeInbound(h.db, 'Are you there?', { phone });
    expect(await pipeline.reply(early.id, undefined, new Date(t0 + 59 * SECOND_MS))).toEqual({
      outcome: 'rate-limited',
      replyMessageId: null,
    });

    // A minute after the first reply, it has left the window: answered again (6 of the hour's 8).
    const later = await storeInbound(h.db, 'When do I plant garlic?', { phone });
    expect((await pipeline.reply(later.id, undefined, new Date(t0 + MINUTE_MS))).outcome).toBe('replied');
    expect((await outbound(user.id)).at(-1)?.kind).toBe('reply');

    // Two more reach the hour's 8; the third is refused by the hour, with a notice of its own.
    const t1 = t0 + 77 * SECOND_MS;
    expect((await series(phone, 4, t1, SECOND_MS)).map((r) => r.outcome)).toEqual([
      'replied',
      'replied',
      'replied',
      'rate-limited',
    ]);
    const sent = await outbound(user.id);
    expect(sent.filter((m) => m.kind === 'reply')).toHaveLength(8);
    const notices = sent.filter((m) => m.kind === 'system');
    expect(notices).toHaveLength(2);
    // The hour reopens when its first reply (at t0) is an hour old: 58 min 41 s after t1 + 2 s.
    expect(notices[1]?.content).toBe(limitNotice(t0 + 60 * MINUTE_MS - (t1 + 2 * SECOND_MS)));
    expect(notices[1]?.content).toContain('in about 59 minutes');
    const stretch = await h.db.dataSource.getRepository(SenderLimit).findOneByOrFail({ userId: user.id });
    expect(stretch).toMatchObject({ limitWindow: 'hour', replyLimit: 8, refused: 2 });
    expect(stretch.limitedAt.getTime()).toBe(t1 + 2 * SECOND_MS);
    expect(stretch.limitedUntil.getTime()).toBe(t0 + 60 * MINUTE_MS);
  });

  it('never limits test users (the simulator)', async () => {
    const { results } = await burst(newPhone(), 8, new Date(), { isTestUser: true });
    expect(results.every((r) => r.outcome === 'replied')).toBe(true);
  });

  it('counts a text admitted twice (a retried job, an MMS run again) once', async () => {
    const limits = h.responder.app.get(SenderLimits);
    const user = (await storeInbound(h.db, 'hello', { phone: newPhone() })).userId;
    const at = new Date();
    for (let i = 0; i < 10; i += 1) expect(await limits.admit(user, 'same-text', at)).toBeNull();
    for (let i = 0; i < 4; i += 1) expect(await limits.admit(user, `text-${i}`, at)).toBeNull();
    expect(await limits.admit(user, 'one-too-many', at)).toMatchObject({ window: 'minute', limit: 5 });
  });

  it('validates the limits as settings, with defaults a real service would pick', () => {
    expect(loadConfig(aiResponderConfig, {})).toMatchObject({
      senderRepliesPerMinute: 5,
      senderRepliesPerHour: 30,
      senderRepliesPerDay: 100,
    });
    expect(loadConfig(aiResponderConfig, { SENDER_REPLIES_PER_HOUR: '60' }).senderRepliesPerHour).toBe(60);
    expect(() => loadConfig(aiResponderConfig, { SENDER_REPLIES_PER_MINUTE: '0' })).toThrow(
      /SENDER_REPLIES_PER_MINUTE must be a whole number between 1 and 1000/,
    );
    expect(() => loadConfig(aiResponderConfig, { SENDER_REPLIES_PER_DAY: 'lots' })).toThrow(
      /SENDER_REPLIES_PER_DAY must be a whole number/,
    );
  });

  it('words the wait a person would', () => {
    expect(waitInWords(20 * SECOND_MS)).toBe('about a minute');
    expect(waitInWords(12 * MINUTE_MS)).toBe('about 12 minutes');
    expect(waitInWords(70 * MINUTE_MS)).toBe('about an hour');
    expect(waitInWords(23 * 60 * MINUTE_MS)).toBe('about 23 hours');
    expect(analyzeSms(limitNotice(23 * 60 * MINUTE_MS)).segments).toBe(1);
  });
});
