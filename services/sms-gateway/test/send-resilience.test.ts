import { smsCircuitKey, smsCircuitStateSchema } from '@sprout/contracts';
import { Message } from '@sprout/domain';
import { JobQueues } from '@sprout/platform';
import {
  FakeTwilio,
  type TestDatabase,
  type TestRedis,
  createTestDatabase,
  createTestRedis,
  useClosable,
} from '@sprout/testing';
import type { SmsGatewayConfig } from '../src/config';
import { STATUS_RECONCILE_SCHEDULER } from '../src/delivery-status/status-reconciler';
import { OutboundService } from '../src/outbound/outbound.service';
import { SenderPacer } from '../src/outbound/sender-pacer';
import {
  type GatewayApp,
  type GatewayHarness,
  eventually,
  insertQueuedReply,
  nextPhone,
  startGateway,
  startGatewayApp,
} from './harness';

const statusOf = async (h: GatewayHarness, id: string, wanted: string[], timeoutMs = 20_000) =>
  eventually(
    async () => {
      const message = await h.db.dataSource.getRepository(Message).findOneByOrFail({ id });
      return wanted.includes(message.status) ? message : undefined;
    },
    `message ${id} to reach ${wanted.join(' or ')}`,
    timeoutMs,
  );

const circuitOf = async (h: GatewayHarness) => {
  const raw = await h.redis.connection.get(smsCircuitKey(h.redis.prefix));
  return raw === null ? null : smsCircuitStateSchema.parse(JSON.parse(raw));
};

describe('a send that cannot go out twice', () => {
  const h = useClosable(() => startGateway({ callbackDelayMs: 5 }));
  beforeEach(() => h.twilio.reset());

  it('finds the message Twilio accepted when the answer was lost, and does not send it again', async () => {
    // Twilio records the message, then the connection drops: to the worker it is as if it had
    // died before storing the sid. The retry must look it up instead of sending a second text.
    h.twilio.dropAfterAccept(1);
    const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
    const { jobId } = await h.gateway.app.get(JobQueues).enqueue('sms.outbound', { messageId: reply.id });

    const delivered = await statusOf(h, reply.id, ['delivered']);
    expect(h.twilio.sent).toHaveLength(1);
    expect(delivered.providerSid).toBe(h.twilio.sent[0]?.sid);
    const job = await h.gateway.app.get(JobQueues).queue('sms.outbound').getJob(jobId);
    // One failed attempt (the dropped answer), then the one that found the message.
    expect(job?.attemptsMade).toBe(2);
  });

  it('records the attempt before calling Twilio, and sends when the lookup finds nothing', async () => {
    const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
    // An earlier attempt that never reached Twilio (the process died before the request).
    await h.db.dataSource.getRepository(Message).update({ id: reply.id }, { status: 'sending' });
    expect(await h.gateway.app.get(OutboundService).send(reply.id, false)).toBe('sent');
    expect(h.twilio.sent).toHaveLength(1);
    expect(await h.gateway.app.get(OutboundService).send(reply.id, false)).toBe('already-sent');
    expect(h.twilio.sent).toHaveLength(1);
  });

  it('does not take an older text with the same words for this attempt', async () => {
    const phone = nextPhone();
    const first = await insertQueuedReply(h.db.dataSource, { phoneNumber: phone, content: 'Mulch now.' });
    expect(await h.gateway.app.get(OutboundService).send(first.id, false)).toBe('sent');
    const sentBefore = h.twilio.sent[0];
    if (sentBefore === undefined) throw new Error('nothing sent');
    // Twilio accepted the first one long before the second reply's attempt started.
    sentBefore.dateCreated = new Date(Date.now() - 60 * 60_000);

    const messages = h.db.dataSource.getRepository(Message);
    const second = await messages.save(
      messages.create({
        userId: first.userId,
        conversationId: first.conversationId,
        direction: 'outbound',
        content: 'Mulch now.',
        status: 'sending',
        kind: 'reply',
      }),
    );
    expect(await h.gateway.app.get(OutboundService).send(second.id, false)).toBe('sent');
    expect(h.twilio.sent).toHaveLength(2);
  });
});

describe('Twilio failing longer than the retry budget', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGateway(
      { callbackDelayMs: 5 },
      { smsCircuitFailureThreshold: 3, smsCircuitOpenMs: 500, smsOutboundConcurrency: 4 },
    );
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    h.twilio.reset();
    await h.redis.connection.del(smsCircuitKey(h.redis.prefix));
  });

  it('holds replies through an outage, opens the circuit, and sends each once when Twilio is back', async () => {
    h.twilio.setOutage({ status: 503 });
    const queues = h.gateway.app.get(JobQueues);
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone(), content: `Reply number ${i}` }),
      ),
    );
    for (const reply of replies) await queues.enqueue('sms.outbound', { messageId: reply.id });

    const open = await eventually(async () => {
      const circuit = await circuitOf(h);
      return circuit?.state === 'open' ? circuit : undefined;
    }, 'the circuit to open');
    expect(open.consecutiveFailures).toBeGreaterThanOrEqual(3);
    expect(open.lastError).toBe('Service Unavailable');
    expect(open.retryAt).toBeGreaterThan(open.openedAt ?? Infinity);
    // Probes keep failing for a while; nothing is lost meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const held = await h.db.dataSource.getRepository(Message).findBy(replies.map((r) => ({ id: r.id })));
    expect(held.every((m) => m.status === 'queued' || m.status === 'sending')).toBe(true);
    expect(h.twilio.sent).toHaveLength(0);

    h.twilio.setOutage(null);
    for (const reply of replies) await statusOf(h, reply.id, ['delivered'], 30_000);
    expect(h.twilio.sent).toHaveLength(12);
    expect(new Set(h.twilio.sent.map((m) => m.body)).size).toBe(12);
    expect((await circuitOf(h))?.state).toBe('closed');
    // No job used up its attempts while held.
    for (const reply of replies) {
      const job = await queues.queue('sms.outbound').getJob(`outbound-${reply.id}`);
      expect(await job?.getState()).toBe('completed');
    }
  }, 60_000);

  it('holds a reply on its final attempt instead of failing it, until the hold is over', async () => {
    h.twilio.setOutage({ status: 503 });
    const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
    const outcome = await h.gateway.app.get(OutboundService).send(reply.id, true);
    expect(outcome).toMatchObject({ hold: 'twilio-failing' });
    // Twilio answered 503: it certainly did not take it, so the next attempt need not look.
    expect((await h.db.dataSource.getRepository(Message).findOneByOrFail({ id: reply.id })).status).toBe(
      'queued',
    );
  });

  it('opens after N failures in a row, holds without calling Twilio, probes once, closes on success', async () => {
    const outbound = h.gateway.app.get(OutboundService);
    h.twilio.failNext({ status: 500, times: 3 });
    for (let i = 0; i < 3; i += 1) {
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
      await expect(outbound.send(reply.id, false)).rejects.toThrow('Internal Server Error');
    }
    expect(await circuitOf(h)).toMatchObject({ state: 'open', consecutiveFailures: 3 });

    const waiting = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
    const outcome = await outbound.send(waiting.id, false);
    expect(outcome).toMatchObject({ hold: 'circuit-open' });
    expect(typeof outcome === 'object' && outcome.waitMs).toBeGreaterThan(0);
    // Held without a call: the failure count did not move and nothing was sent.
    expect(await circuitOf(h)).toMatchObject({ state: 'open', consecutiveFailures: 3 });

    // Open time over: one probe goes; it fails, so the circuit opens again.
    await new Promise((resolve) => setTimeout(resolve, 600));
    h.twilio.failNext({ status: 500 });
    await expect(outbound.send(waiting.id, false)).rejects.toThrow('Internal Server Error');
    expect(await circuitOf(h)).toMatchObject({ state: 'open', consecutiveFailures: 4 });

    // The next probe succeeds: closed, counters cleared.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await outbound.send(waiting.id, false)).toBe('sent');
    expect(await circuitOf(h)).toMatchObject({ state: 'closed', consecutiveFailures: 0, lastError: null });
    expect(h.twilio.sent).toHaveLength(1);
  });
});

describe('stale statuses reconciled on a schedule', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    // No callbacks at all, as if every one had hit an outage.
    h = await startGateway(
      { callbackDelayMs: 5, disableCallbacks: true },
      { smsStatusReconcileEveryMs: 1_000, smsStatusStaleAfterMs: 0 },
    );
  });
  afterAll(async () => {
    await h?.close();
  });

  it('registers one repeatable job and brings queued replies to their Twilio status', async () => {
    const schedulers = await h.gateway.app.get(JobQueues).queue('delivery.check').getJobSchedulers();
    expect(schedulers.map((s) => s.key)).toEqual([STATUS_RECONCILE_SCHEDULER]);
    expect(schedulers[0]?.every).toBe(1_000);

    const phone = nextPhone();
    h.twilio.setOutcomeFor(phone, { status: 'undelivered', errorCode: 30003 });
    const delivered = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
    const undelivered = await insertQueuedReply(h.db.dataSource, { phoneNumber: phone });
    const queues = h.gateway.app.get(JobQueues);
    await queues.enqueue('sms.outbound', { messageId: delivered.id });
    await queues.enqueue('sms.outbound', { messageId: undelivered.id });

    expect((await statusOf(h, delivered.id, ['delivered'])).deliveredAt).not.toBeNull();
    expect(await statusOf(h, undelivered.id, ['undelivered'])).toMatchObject({
      errorCode: '30003',
      errorMessage: 'Unreachable destination handset',
    });
  });
});

describe('per-sender pacing', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let twilio: FakeTwilio;
  const apps: GatewayApp[] = [];

  const startReplica = async (overrides: Partial<SmsGatewayConfig>) => {
    const app = await startGatewayApp({ db, redis, twilio }, overrides);
    apps.push(app);
    return app;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    twilio = await FakeTwilio.start({ callbackDelayMs: 5 });
  });
  afterAll(async () => {
    await Promise.allSettled(apps.map((app) => app.close()));
    await twilio?.close();
    await redis?.cleanup();
    await db?.drop();
  });
  beforeEach(() => twilio.reset());

  it('holds the rate of one number across two replicas on one Redis', async () => {
    const rate = 4; // segments per second: one every 250 ms
    // One send at a time per replica, and Twilio answers each in 600 ms: a replica busy with one
    // send cannot take the next one due 250 ms later, so both replicas send (a free worker may
    // otherwise take every job on a loaded machine).
    const first = await startReplica({ smsLongCodeRate: rate, smsOutboundConcurrency: 1 });
    const second = await startReplica({ smsLongCodeRate: rate, smsOutboundConcurrency: 1 });
    for (let i = 0; i < 10; i++) twilio.delayNext(600);
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        insertQueuedReply(db.dataSource, { phoneNumber: nextPhone(), content: `Paced reply ${i}` }),
      ),
    );
    // Half the jobs added through each replica; either replica's workers may take any of them.
    await Promise.all(
      replies.map((reply, i) =>
        (i % 2 === 0 ? first : second).app.get(JobQueues).enqueue('sms.outbound', { messageId: reply.id }),
      ),
    );
    const sent = await twilio.waitForMessages(10, 20_000);
    const times = sent.map((m) => m.dateCreated.getTime()).sort((a, b) => a - b);
    const span = (times[times.length - 1] ?? 0) - (times[0] ?? 0);
    // 10 sends at 4/s: the last one at least 9 slots after the first (timer slack allowed).
    expect(span).toBeGreaterThanOrEqual(9 * 250 - 100);
    // No send before its slot: the k-th at least k slots after the first.
    times.forEach((time, k) => expect(time - (times[0] ?? 0)).toBeGreaterThanOrEqual(k * 250 - 100));
    // Both replicas sent some (their status callback URLs differ).
    const callbackHosts = new Set(sent.map((m) => m.statusCallback));
    expect(callbackHosts.size).toBe(2);
    expect(new Set(sent.map((m) => m.body)).size).toBe(10);
    await Promise.all(apps.splice(0).map((app) => app.close()));
  }, 60_000);

  it('counts segments: a three-segment text takes three slots', async () => {
    const app = await startReplica({ smsLongCodeRate: 2 });
    const pacer = app.app.get(SenderPacer);
    const sender = '+15035550111';
    expect(await pacer.pace(sender, 'a', 3)).toEqual({ go: true });
    const next = await pacer.pace(sender, 'b', 1);
    expect(next.go).toBe(false);
    // Three segments at 2/s: the next slot is 1.5 s away.
    expect(!next.go && next.waitMs).toBeGreaterThan(1_300);
    expect(!next.go && next.waitMs).toBeLessThanOrEqual(1_500);
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  it('a burst from one number does not delay another number, nor hold worker slots', async () => {
    const app = await startReplica({ smsLongCodeRate: 1, smsOutboundConcurrency: 1 });
    const pacer = app.app.get(SenderPacer);
    const burstNumber = app.config.twilioPhoneNumber;
    for (let i = 0; i < 5; i += 1) await pacer.pace('+15035550122', `other-${i}`, 1);
    // Another number, another bucket: its first send goes at once.
    expect(await pacer.pace('+15035550133', 'b-0', 1)).toEqual({ go: true });
    expect(pacer.rateOf(burstNumber)).toBe(1);
    expect(pacer.rateOf('12345')).toBe(app.config.smsShortCodeRate);
    expect(pacer.rateOf('+18005550100')).toBe(app.config.smsTollFreeRate);

    // Eight replies at 1/s through one worker slot (7 s of sending): the paced ones wait in
    // Redis, not on the worker, so a job added after them still runs at once.
    const queues = app.app.get(JobQueues);
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        insertQueuedReply(db.dataSource, { phoneNumber: nextPhone(), content: `Burst ${i}` }),
      ),
    );
    for (const reply of burst) await queues.enqueue('sms.outbound', { messageId: reply.id });
    await twilio.waitForMessages(1, 5_000);
    const testUser = await insertQueuedReply(db.dataSource, { phoneNumber: nextPhone(), isTestUser: true });
    const added = Date.now();
    await queues.enqueue('sms.outbound', { messageId: testUser.id });
    await eventually(async () => {
      const m = await db.dataSource.getRepository(Message).findOneByOrFail({ id: testUser.id });
      return m.status === 'delivered' ? m : undefined;
    }, 'the job behind the burst');
    expect(Date.now() - added).toBeLessThan(2_000);
    expect(twilio.sent.length).toBeLessThan(8);
    await twilio.waitForMessages(8, 20_000);
    await Promise.all(apps.splice(0).map((a) => a.close()));
  }, 60_000);
});
