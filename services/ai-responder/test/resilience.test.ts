// Faults: a worker killed mid-job, a transaction that fails after the model call, a crash after
// the commit; and MMS replies that wait for their image.analyze children (a BullMQ flow).
import { Conversation, LlmCall, Message, replyIdFor } from '@sprout/domain';
import {
  type RunningWorkers,
  JobQueues,
  Metrics,
  UnrecoverableError,
  WorkerHost,
  createLogger,
  startWorkers,
} from '@sprout/platform';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { useClosable } from '@sprout/testing';
import { PipelineService } from '../src/pipeline/pipeline.service';
import { type Responder, eventually, startHarness, storeInbound } from './harness';

describe('resilience', () => {
  const h = useClosable(() => startHarness({ openai: true }));
  beforeEach(() => h.openai?.reset());

  const messages = () => h.db.dataSource.getRepository(Message);
  const queues = () => h.responder.app.get(JobQueues);
  const replyOf = async (inboundId: string) =>
    (await messages().findOneBy({ id: replyIdFor(inboundId) })) ?? undefined;
  /** The responder's job metric (a counter, or a histogram's count) for these labels. */
  const jobMetric = async (name: string, labels: Record<string, string>): Promise<number> => {
    const metric = h.responder.app.get(Metrics).registry.getSingleMetric(name);
    const values = metric === undefined ? [] : (await metric.get()).values;
    return values
      .filter(
        (value) =>
          Object.entries(labels).every(([key, expected]) => value.labels[key] === expected) &&
          (!('metricName' in value) || value.metricName === `${name}_count`),
      )
      .reduce((sum, value) => sum + value.value, 0);
  };

  /**
   * What dies with a process: its workers stop at once (a force-closed BullMQ worker neither renews
   * its locks nor reports its jobs) and its Postgres pool is gone, so the job it was running can
   * neither finish nor write anything more.
   */
  const kill = async (responder: Responder): Promise<void> => {
    await Promise.all(
      [...responder.app.get(WorkerHost).workers.values()].map((worker) => worker.close(true)),
    );
    await responder.app.get(DataSource).destroy();
  };

  it('loses nothing when a worker is killed mid-job: another worker answers it once', async () => {
    const inboundWorker = h.responder.app.get(WorkerHost).workers.get('sms.inbound');
    if (inboundWorker === undefined) throw new Error('no sms.inbound worker');
    await inboundWorker.pause();
    // Its model call outlives the kill, then times out, so nothing of it lingers after the test.
    const doomed = await h.startResponder({ llmTimeoutMs: 2_000 });
    const inbound = await storeInbound(h.db, 'How deep should I plant tulip bulbs?');
    h.openai?.delayNext(2_500);
    await queues().enqueue('sms.inbound', { messageId: inbound.id });
    await h.openai?.waitForRequests(1, 15_000);
    await kill(doomed);

    // The dead worker's lock would expire after lockDuration (30 s), and the next stalled check
    // could be up to stalledInterval away: let that time pass now (lock and check throttle gone),
    // then a stalled check with a short interval returns the job to the queue, as BullMQ does.
    const jobId = `inbound-${inbound.id}`;
    const redis = h.responder.app.get(Redis);
    await redis.del(
      `${h.redis.prefix}:sms.inbound:${jobId}:lock`,
      `${h.redis.prefix}:sms.inbound:stalled-check`,
    );
    const checker = new Worker('sms.inbound', null, {
      connection: redis,
      prefix: h.redis.prefix,
      autorun: false,
      stalledInterval: 200,
    });
    const stalled: string[] = [];
    checker.on('stalled', (id) => stalled.push(id));
    try {
      await checker.startStalledCheckTimer();
      await eventually(async () => (stalled.includes(jobId) ? true : undefined), 'the stalled check');
      await inboundWorker.resume();
      const reply = await eventually(() => replyOf(inbound.id), 'the reply from the surviving worker');
      expect(reply.kind).toBe('reply');
    } finally {
      await checker.close();
    }
    const job = await queues().queue('sms.inbound').getJob(jobId);
    await eventually(async () => ((await job?.getState()) === 'completed' ? true : undefined), 'completion');
    expect(await messages().countBy({ conversationId: inbound.conversationId, direction: 'outbound' })).toBe(
      1,
    );
    expect(h.openai?.completions).toHaveLength(2);
    const conversation = await h.db.dataSource
      .getRepository(Conversation)
      .findOneByOrFail({ id: inbound.conversationId });
    expect(conversation.messageCount).toBe(2);
    expect(
      await queues()
        .queue('sms.outbound')
        .getJob(`outbound-${replyIdFor(inbound.id)}`),
    ).toBeDefined();
  });

  it('retries a job whose transaction failed after the model call, keeping the paid call on record', async () => {
    const ds = h.db.dataSource;
    await ds.query(`CREATE SEQUENCE "fault_once"`);
    await ds.query(`CREATE FUNCTION "fail_first_reply"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."direction" = 'outbound' AND nextval('fault_once') = 1 THEN
          RAISE EXCEPTION 'injected fault';
        END IF;
        RETURN NEW;
      END $$`);
    await ds.query(`CREATE TRIGGER "fail_first_reply" BEFORE INSERT ON "messages"
      FOR EACH ROW EXECUTE FUNCTION "fail_first_reply"()`);
    try {
      const inbound = await storeInbound(h.db, 'When should I divide my irises?');
      await queues().enqueue('sms.inbound', { messageId: inbound.id });
      const reply = await eventually(() => replyOf(inbound.id), 'the reply after a retry');
      const job = await queues().queue('sms.inbound').getJob(`inbound-${inbound.id}`);
      await eventually(
        async () => ((await job?.getState()) === 'completed' ? true : undefined),
        'completion',
      );
      expect((await queues().queue('sms.inbound').getJob(`inbound-${inbound.id}`))?.attemptsMade).toBe(2);
      expect(
        await messages().countBy({ conversationId: inbound.conversationId, direction: 'outbound' }),
      ).toBe(1);
      const calls = await ds.getRepository(LlmCall).find({
        where: { conversationId: inbound.conversationId },
        order: { createdAt: 'ASC' },
      });
      expect(calls.map((c) => [c.tier, c.messageId])).toEqual([
        ['primary', null],
        ['primary', reply.id],
      ]);
      expect(calls[0]?.cost).toBeGreaterThan(0);
      const conversation = await ds
        .getRepository(Conversation)
        .findOneByOrFail({ id: inbound.conversationId });
      expect(conversation.messageCount).toBe(2);
    } finally {
      await ds.query(`DROP TRIGGER "fail_first_reply" ON "messages"`);
      await ds.query(`DROP FUNCTION "fail_first_reply"()`);
      await ds.query(`DROP SEQUENCE "fault_once"`);
    }
  });

  it('after a crash between the commit and the enqueue, the retry sends the reply without writing another', async () => {
    const pipeline = h.responder.app.get(PipelineService);
    const inbound = await storeInbound(h.db, 'How do I keep squirrels out of my bulbs?');
    await pipeline.reply(inbound.id);
    const replyId = replyIdFor(inbound.id);
    const outbound = queues().queue('sms.outbound');
    await (await outbound.getJob(`outbound-${replyId}`))?.remove();
    expect(await outbound.getJob(`outbound-${replyId}`)).toBeUndefined();
    expect(await pipeline.reply(inbound.id)).toEqual({ outcome: 'already-replied', replyMessageId: replyId });
    expect(await outbound.getJob(`outbound-${replyId}`)).toBeDefined();
    expect(h.openai?.completions).toHaveLength(1);
  });

  describe('MMS', () => {
    let imageWorkers: RunningWorkers;
    const analyzed: string[] = [];
    beforeAll(async () => {
      // Stands in for image-processor: settles each media item the way it does.
      imageWorkers = await startWorkers({
        connection: h.responder.app.get(Redis),
        prefix: h.redis.prefix,
        owns: ['image.analyze'],
        logger: createLogger({ name: 'fake-image-processor', level: 'silent' }),
        handlers: {
          'image.analyze': async ({ messageId, mediaIndex }) => {
            const message = await messages().findOneByOrFail({ id: messageId });
            if (message.media[mediaIndex]?.url.includes('broken')) {
              throw new UnrecoverableError('Could not fetch the image');
            }
            analyzed.push(`${messageId}#${mediaIndex}`);
            await messages().update(
              { id: messageId },
              {
                imageProcessed: true,
                imageAnalysis: 'A tomato leaf with brown rings: early blight.',
                media: message.media.map((item, i) =>
                  i === mediaIndex ? { ...item, analyzedAt: new Date().toISOString() } : item,
                ),
              },
            );
            return {
              status: 'processed',
              messageId,
              mediaIndex,
              analysis: 'A tomato leaf with brown rings: early blight.',
              contentType: 'image/jpeg',
              tokensUsed: 0,
              cost: 0,
              model: null,
              processingTime: 0,
              error: null,
            };
          },
        },
      });
    });
    afterAll(async () => {
      await imageWorkers?.close();
    });

    it('waits for the image analysis and answers with it as context', async () => {
      const metric = {
        failed: () => jobMetric('sprout_jobs_failed_total', { queue: 'sms.inbound' }),
        processed: () => jobMetric('sprout_jobs_processed_total', { queue: 'sms.inbound' }),
        waiting: () =>
          jobMetric('sprout_job_duration_seconds', { queue: 'sms.inbound', outcome: 'waiting-children' }),
        children: () => jobMetric('sprout_jobs_enqueued_total', { queue: 'image.analyze' }),
      };
      const before = {
        failed: await metric.failed(),
        processed: await metric.processed(),
        waiting: await metric.waiting(),
        children: await metric.children(),
      };
      const inbound = await storeInbound(h.db, '', {
        media: [{ url: 'https://media.example/leaf.jpg', contentType: 'image/jpeg' }],
      });
      await queues().enqueue('sms.inbound', { messageId: inbound.id });
      const reply = await eventually(() => replyOf(inbound.id), 'the MMS reply');
      expect(analyzed).toContain(`${inbound.id}#0`);
      // Added through the queue layer: its id (message id + media index), options and metric.
      const child = await queues().queue('image.analyze').getJob(`image-${inbound.id}-0`);
      expect(child?.parentKey).toBe(`${h.redis.prefix}:sms.inbound:inbound-${inbound.id}`);
      expect(child?.opts).toMatchObject({ attempts: 3, ignoreDependencyOnFailure: true });
      await eventually(
        async () => ((await metric.processed()) > before.processed ? true : undefined),
        'completion',
      );
      // Parking in waiting-children is not a failed attempt.
      expect(await metric.failed()).toBe(before.failed);
      expect(await metric.waiting()).toBe(before.waiting + 1);
      expect(await metric.children()).toBe(before.children + 1);
      const turn = JSON.stringify(h.openai?.completions.at(-1)?.messages.at(-1)?.content);
      expect(turn).toContain('What can you tell me about this image?');
      expect(turn).toContain('early blight');
      expect(reply.kind).toBe('reply');
      expect(
        await messages().countBy({ conversationId: inbound.conversationId, direction: 'outbound' }),
      ).toBe(1);
    });

    it('still answers when an image cannot be analysed', async () => {
      const inbound = await storeInbound(h.db, 'What is wrong with this plant?', {
        media: [{ url: 'https://media.example/broken.jpg', contentType: 'image/jpeg' }],
      });
      await queues().enqueue('sms.inbound', { messageId: inbound.id });
      const reply = await eventually(() => replyOf(inbound.id), 'the reply without analysis');
      const child = await queues().queue('image.analyze').getJob(`image-${inbound.id}-0`);
      expect(await child?.getState()).toBe('failed');
      const turn = JSON.stringify(h.openai?.completions.at(-1)?.messages.at(-1)?.content);
      expect(turn).toContain('What is wrong with this plant?');
      expect(turn).not.toContain('photo, as');
      expect(reply.kind).toBe('reply');
    });
  });
});
