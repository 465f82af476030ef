import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Message } from '@sprout/domain';
import { useClosable } from '@sprout/testing';
import {
  eventually,
  insertQueuedReply,
  killProcess,
  requeueStalledOutbound,
  startGatewayStage,
} from './harness';

/**
 * A gateway process killed (SIGKILL) while its worker is in the middle of sending a reply: the
 * job stays in Redis, comes back once its lock has expired, and another gateway sends the reply
 * exactly once.
 */
describe('outbound worker killed mid-job', () => {
  const stage = useClosable(() => startGatewayStage({ callbackDelayMs: 5 }));
  // The first gateway's Twilio: takes the request and never answers, so the job is mid-call.
  let arrived: () => void = () => undefined;
  const requestArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const blackHole = http.createServer(() => arrived());
  beforeAll(() => new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve)));
  afterAll(async () => {
    blackHole.closeAllConnections();
    await new Promise((resolve) => blackHole.close(resolve));
  });

  it('loses nothing and sends the reply once', async () => {
    const { db, redis, twilio, queues } = stage;
    const child = await stage.startProcess(`http://127.0.0.1:${(blackHole.address() as AddressInfo).port}`);
    const reply = await insertQueuedReply(db.dataSource, { phoneNumber: '+15035550177' });
    const { jobId } = await queues.enqueue('sms.outbound', { messageId: reply.id });
    await requestArrived;
    const messages = db.dataSource.getRepository(Message);
    expect((await messages.findOneByOrFail({ id: reply.id })).status).toBe('sending');

    await killProcess(child);

    // The job is still in Redis, active under the dead worker's lock; nothing went out.
    const outbound = queues.queue('sms.outbound');
    expect(await (await outbound.getJob(jobId))?.getState()).toBe('active');
    expect(twilio.sent).toHaveLength(0);

    // Once its lock has expired another gateway takes the job over and sends the reply once.
    await requeueStalledOutbound(redis, queues, jobId);
    await stage.startApp();
    const delivered = await eventually(async () => {
      const m = await messages.findOneByOrFail({ id: reply.id });
      return m.status === 'delivered' ? m : undefined;
    }, 'the reply to be delivered');
    expect(delivered.providerSid).toMatch(/^SM/);
    expect(twilio.sent).toHaveLength(1);
    expect(twilio.sent[0]).toMatchObject({ to: '+15035550177', body: reply.content });
    expect(await (await outbound.getJob(jobId))?.getState()).toBe('completed');
  });
});

/**
 * A gateway process killed (SIGKILL) after Twilio accepted a reply but before
 * the gateway stored its sid. The job comes back on another gateway, which finds the message at
 * Twilio (recorded attempt, no sid: look before sending) and does not send it a second time.
 */
describe('gateway killed with a send in flight at Twilio', () => {
  const stage = useClosable(() => startGatewayStage({ callbackDelayMs: 5 }));

  it('sends the reply once', async () => {
    const { db, redis, twilio, queues } = stage;
    const child = await stage.startProcess();
    // Twilio takes the message at once but answers only after the gateway is dead.
    twilio.holdAnswerAfterAccept(60_000);
    const reply = await insertQueuedReply(db.dataSource, { phoneNumber: '+15035550178' });
    const { jobId } = await queues.enqueue('sms.outbound', { messageId: reply.id });
    await twilio.waitForMessages(1, 20_000);
    const messages = db.dataSource.getRepository(Message);
    expect(await messages.findOneByOrFail({ id: reply.id })).toMatchObject({
      status: 'sending',
      providerSid: null,
    });

    await killProcess(child);
    // The dead worker's job comes back, to another gateway.
    await requeueStalledOutbound(redis, queues, jobId);
    await stage.startApp();
    const found = await eventually(async () => {
      const m = await messages.findOneByOrFail({ id: reply.id });
      return m.providerSid === null ? undefined : m;
    }, 'the survivor to store the sid');
    expect(found.providerSid).toBe(twilio.sent[0]?.sid);
    expect(await (await queues.queue('sms.outbound').getJob(jobId))?.getState()).toBe('completed');
    // The fake's record: one message to that phone, ever.
    expect(twilio.sent).toHaveLength(1);
    expect(twilio.sent[0]).toMatchObject({ to: '+15035550178', body: reply.content });
  });
});
