import type { JobPayload, JobResult } from '@sprout/contracts';
import { Message } from '@sprout/domain';
import { JobQueues } from '@sprout/platform';
import { useClosable } from '@sprout/testing';
import type { DataSource } from 'typeorm';
import {
  eventually,
  insertQueuedReply,
  killProcess,
  nextPhone,
  startGateway,
  startGatewayStage,
} from './harness';

/** A reply Twilio has taken (sid stored, status sending), as the send leaves it. */
const sentReply = async (dataSource: DataSource, sid: string): Promise<Message> => {
  const reply = await insertQueuedReply(dataSource, { phoneNumber: nextPhone() });
  await dataSource.getRepository(Message).update(reply.id, { providerSid: sid, status: 'sending' });
  return reply;
};

const sid = (n: number) => `SM${String(n).padStart(32, '0')}`;

describe('status callbacks through the webhook', () => {
  const stage = useClosable(() => startGatewayStage());
  const messages = () => stage.db.dataSource.getRepository(Message);
  const statusQueue = () => stage.queues.queue('sms.status');

  const postStatus = (baseUrl: string, params: Record<string, string>) => {
    const url = `${baseUrl}/webhooks/twilio/status`;
    return fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Twilio-Signature': stage.twilio.signWebhook(url, params),
      },
      body: new URLSearchParams(params).toString(),
    });
  };

  it('answers callbacks arriving together once their one job is in Redis, which outlives the gateway', async () => {
    const first = await sentReply(stage.db.dataSource, sid(1));
    const second = await sentReply(stage.db.dataSource, sid(2));
    // No worker takes the jobs: the gateway dies with them queued and unapplied.
    await statusQueue().pause();
    const child = await stage.startProcess();
    const posted: Array<Record<string, string>> = [
      { MessageSid: sid(1), MessageStatus: 'sent' },
      { MessageSid: sid(2), MessageStatus: 'sent' },
      { MessageSid: sid(1), MessageStatus: 'delivered' },
      { MessageSid: sid(2), MessageStatus: 'undelivered', ErrorCode: '30003' },
    ];
    const answers = await Promise.all(posted.map((params) => postStatus(child.baseUrl, params)));
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204, 204]);
    await killProcess(child);

    const jobs = await statusQueue().getWaiting();
    const queued = jobs.flatMap((job) => (job.data as JobPayload<'sms.status'>).callbacks);
    expect(queued).toHaveLength(posted.length);
    expect(new Set(queued.map((c) => `${c.providerSid} ${c.status}`))).toEqual(
      new Set(posted.map((p) => `${p.MessageSid} ${p.MessageStatus}`)),
    );
    expect(jobs.length).toBeLessThan(posted.length);

    await statusQueue().resume();
    await stage.startApp();
    await eventually(async () => {
      const [a, b] = await Promise.all([
        messages().findOneByOrFail({ id: first.id }),
        messages().findOneByOrFail({ id: second.id }),
      ]);
      return a.status === 'delivered' && b.status === 'undelivered' ? true : undefined;
    }, 'both callbacks applied by the next gateway');
    expect((await messages().findOneByOrFail({ id: second.id })).errorCode).toBe('30003');
  });
});

describe('the sms.status job', () => {
  const h = useClosable(() => startGateway());
  const messages = () => h.db.dataSource.getRepository(Message);
  const queues = () => h.gateway.app.get(JobQueues);
  const statusQueue = () => queues().queue('sms.status');

  /** The job's result once it has completed. */
  const finished = (jobId: string) =>
    eventually(async () => {
      const job = await statusQueue().getJob(jobId);
      return job?.finishedOn === undefined ? undefined : (job.returnvalue as JobResult<'sms.status'>);
    }, `status job ${jobId}`);

  it("applies one message's callbacks in their order and refuses a stale one", async () => {
    const first = await sentReply(h.db.dataSource, sid(3));
    const second = await sentReply(h.db.dataSource, sid(4));
    // Among final statuses the first one wins, so the order decides each message's outcome.
    const { jobId } = await queues().enqueue('sms.status', {
      callbacks: [
        { providerSid: sid(3), status: 'delivered' },
        { providerSid: sid(4), status: 'undelivered', errorCode: '30003' },
        { providerSid: sid(3), status: 'undelivered', errorCode: '30005' },
        { providerSid: sid(4), status: 'delivered' },
        { providerSid: sid(3), status: 'sent' },
        { providerSid: sid(4), status: 'receiving' },
      ],
    });
    expect(await finished(jobId)).toEqual({ updated: 2, unchanged: 3, unknownMessage: 0, ignored: 1 });
    const a = await messages().findOneByOrFail({ id: first.id });
    expect(a.status).toBe('delivered');
    expect(a.errorCode).toBeNull();
    expect(a.deliveredAt).not.toBeNull();
    const b = await messages().findOneByOrFail({ id: second.id });
    expect(b.status).toBe('undelivered');
    expect(b.errorCode).toBe('30003');
    expect(b.deliveredAt).toBeNull();

    // A later job with an earlier status changes nothing.
    const stale = await queues().enqueue('sms.status', {
      callbacks: [{ providerSid: sid(3), status: 'sent' }],
    });
    expect(await finished(stale.jobId)).toEqual({ updated: 0, unchanged: 1, unknownMessage: 0, ignored: 0 });
    expect((await messages().findOneByOrFail({ id: first.id })).status).toBe('delivered');
  });

  it('retries only the callbacks whose message is not stored yet', async () => {
    const known = await sentReply(h.db.dataSource, sid(5));
    const { jobId } = await queues().enqueue('sms.status', {
      callbacks: [
        { providerSid: sid(5), status: 'delivered' },
        { providerSid: sid(6), status: 'sent' },
      ],
    });
    // The first attempt applies the known one and keeps the other for the next attempt.
    const retried = await eventually(async () => {
      const job = await statusQueue().getJob(jobId);
      return job !== undefined && job.attemptsMade >= 1 ? job : undefined;
    }, 'the first attempt to fail');
    expect((retried.data as JobPayload<'sms.status'>).callbacks).toEqual([
      { providerSid: sid(6), status: 'sent' },
    ]);
    expect((await messages().findOneByOrFail({ id: known.id })).status).toBe('delivered');

    const late = await sentReply(h.db.dataSource, sid(6));
    expect(await finished(jobId)).toEqual({ updated: 1, unchanged: 0, unknownMessage: 0, ignored: 0 });
    expect((await messages().findOneByOrFail({ id: late.id })).status).toBe('sent');
  });
});
