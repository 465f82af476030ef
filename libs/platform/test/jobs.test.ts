import { Writable } from 'node:stream';
import { Injectable, Module } from '@nestjs/common';
import type { JobPayload, JobResult } from '@sprout/contracts';
import {
  InvalidJobResultError,
  JobQueues,
  JobTimeoutError,
  Metrics,
  OnJob,
  PlatformModule,
  WorkerConfigurationError,
  coreConfigFields,
  createLogger,
  createServiceApp,
  defineConfig,
  loadConfig,
  portField,
  jobMetrics,
  startWorkers,
  type CoreConfig,
} from '@sprout/platform';
import { type TestDatabase, type TestRedis, createTestDatabase, createTestRedis } from '@sprout/testing';
import { WaitingChildrenError, Worker } from 'bullmq';

const silent = createLogger({ name: 'test', level: 'silent' });

const healthy: JobResult<'monitor.health'> = {
  overallHealth: 'healthy',
  timestamp: '2025-05-01T10:15:42.000Z',
  services: { database: { available: true, lastCheck: '2025-05-01T10:15:42.000Z', consecutiveFailures: 0 } },
};

/** Log lines (JSON) written by a logger at debug level. */
const capturedLogger = () => {
  const lines: Array<{ level: number; msg: string; queue?: string }> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ name: 'test', level: 'debug', destination }) };
};

/** A prom-client counter, or a histogram's count, summed over series with these labels (0 if none). */
const metricValue = async (
  metrics: Metrics,
  name: string,
  labels: Record<string, string>,
): Promise<number> => {
  const metric = metrics.registry.getSingleMetric(name);
  if (metric === undefined) return 0;
  const { values } = await metric.get();
  const matching = values.filter(
    (value) =>
      Object.entries(labels).every(([key, expected]) => value.labels[key] === expected) &&
      // A histogram answers buckets, sum and count: its count is the number of observations.
      (!('metricName' in value) || value.metricName === `${name}_count`),
  );
  return matching.reduce((sum, value) => sum + value.value, 0);
};

describe('JobQueues and workers (plain)', () => {
  let redis: TestRedis;
  let queues: JobQueues;

  beforeAll(async () => {
    redis = await createTestRedis();
    queues = new JobQueues({ connection: redis.connection, prefix: redis.prefix });
  });
  afterAll(async () => {
    await queues?.close();
    await redis?.cleanup();
  });

  it('refuses to start when an owned queue has no handler, naming the queue', async () => {
    await expect(
      startWorkers({
        connection: redis.connection,
        prefix: redis.prefix,
        owns: ['monitor.health', 'monitor.predict'],
        handlers: { 'monitor.health': async () => healthy } as never,
        logger: silent,
      }),
    ).rejects.toThrow(
      new WorkerConfigurationError('Workers refused to start: no handler for queue monitor.predict'),
    );
  });

  it('parses payloads before they reach Redis', async () => {
    await expect(queues.enqueue('sms.outbound', { messageId: 'nope' })).rejects.toThrow(/messageId/);
    expect(await queues.queue('sms.outbound').count()).toBe(0);
  });

  it('uses the custom job id, so a repeated add changes nothing', async () => {
    const messageId = '6f1c2d3e-1234-4cde-8f00-123456789012';
    const first = await queues.enqueue('sms.outbound', { messageId });
    const second = await queues.enqueue('sms.outbound', { messageId });
    expect(first.jobId).toBe(`outbound-${messageId}`);
    expect(second.jobId).toBe(first.jobId);
    expect(await queues.queue('sms.outbound').count()).toBe(1);
    const job = await queues.queue('sms.outbound').getJob(first.jobId);
    expect(job?.opts).toMatchObject({ attempts: 6, backoff: { type: 'exponential', delay: 2000 } });
    await queues.queue('sms.outbound').obliterate({ force: true });
  });

  it('waits for a job result, and times out when nobody answers', async () => {
    const workers = await startWorkers({
      connection: redis.connection,
      prefix: redis.prefix,
      owns: ['monitor.health'],
      handlers: { 'monitor.health': async () => healthy },
      logger: silent,
    });
    try {
      const result: JobResult<'monitor.health'> = await queues.enqueueAndWait('monitor.health', {}, 10_000);
      expect(result).toEqual(healthy);
    } finally {
      await workers.close();
    }
    await expect(queues.enqueueAndWait('monitor.predict', {}, 300)).rejects.toBeInstanceOf(JobTimeoutError);
  });

  it('parses the result on the waiting side: an answer outside the contract is refused, naming the field', async () => {
    // A worker of another version, outside the typed worker host.
    const stranger = new Worker('survey.lifecycle', async () => ({ campaigns: 'all', transitions: [] }), {
      connection: redis.connection,
      prefix: redis.prefix,
    });
    try {
      const waiting = queues.enqueueAndWait('survey.lifecycle', {}, 10_000);
      await expect(waiting).rejects.toBeInstanceOf(InvalidJobResultError);
      await expect(waiting).rejects.toThrow(/campaigns[\s\S]*newlyTargeted/);
    } finally {
      await stranger.close();
    }
  });

  it('adds a flow child through the layer, and a parent waiting for it is not a failed attempt', async () => {
    const metrics = new Metrics('test', false);
    const layer = new JobQueues({
      connection: redis.connection,
      prefix: redis.prefix,
      metrics: jobMetrics(metrics),
    });
    const { lines, logger } = capturedLogger();
    const messageId = '3a7c5e10-2b4d-4f6a-8c9e-0d1f2a3b4c5d';
    const runs: string[] = [];
    const added: unknown[] = [];
    const workers = await startWorkers({
      connection: redis.connection,
      prefix: redis.prefix,
      owns: ['sms.inbound', 'image.analyze'],
      logger,
      metrics,
      handlers: {
        'sms.inbound': async (payload, job) => {
          runs.push('parent');
          if (runs.filter((run) => run === 'parent').length === 1 && job.token !== undefined) {
            added.push(
              await layer.addChild(
                job,
                'image.analyze',
                { messageId: payload.messageId, mediaIndex: 0 },
                { ignoreDependencyOnFailure: true },
              ),
            );
            if (await job.moveToWaitingChildren(job.token)) throw new WaitingChildrenError();
          }
          // Run again once the child finished: its result is the parent's to read.
          const [analysis] = Object.values(await job.getChildrenValues<JobResult<'image.analyze'>>());
          return { outcome: 'replied', replyMessageId: analysis?.messageId ?? null };
        },
        'image.analyze': async ({ messageId: analysed, mediaIndex }) => {
          runs.push('child');
          return {
            status: 'processed',
            messageId: analysed,
            mediaIndex,
            analysis: 'A tomato leaf with early blight.',
            contentType: 'image/jpeg',
            tokensUsed: 420,
            cost: 0.0012,
            model: 'gpt-4o-mini',
            processingTime: 15,
            error: null,
          };
        },
      },
    });
    try {
      const result: JobResult<'sms.inbound'> = await layer.enqueueAndWait(
        'sms.inbound',
        { messageId },
        15_000,
      );
      expect(result).toEqual({ outcome: 'replied', replyMessageId: messageId });
    } finally {
      await workers.close();
      await layer.close();
    }
    expect(runs).toEqual(['parent', 'child', 'parent']);

    // The child's id is the message id + media index (one analysis per photo however often added) and the queue's options.
    expect(added).toEqual([{ jobId: `image-${messageId}-0`, outcome: 'added' }]);
    const child = await queues.queue('image.analyze').getJob(`image-${messageId}-0`);
    expect(child?.parentKey).toBe(`${redis.prefix}:sms.inbound:inbound-${messageId}`);
    expect(child?.opts).toMatchObject({
      attempts: 3,
      backoff: { type: 'exponential', delay: 5000 },
      removeOnComplete: { age: 86_400, count: 5000 },
      removeOnFail: { age: 14 * 86_400, count: 1000 },
      ignoreDependencyOnFailure: true,
    });

    const value = (name: string, labels: Record<string, string>) => metricValue(metrics, name, labels);
    expect(await value('sprout_jobs_enqueued_total', { queue: 'image.analyze' })).toBe(1);
    expect(await value('sprout_jobs_failed_total', { queue: 'sms.inbound' })).toBe(0);
    expect(await value('sprout_jobs_processed_total', { queue: 'sms.inbound' })).toBe(1);
    expect(await value('sprout_jobs_processed_total', { queue: 'image.analyze' })).toBe(1);
    const duration = 'sprout_job_duration_seconds';
    expect(await value(duration, { queue: 'sms.inbound', outcome: 'waiting-children' })).toBe(1);
    expect(await value(duration, { queue: 'sms.inbound', outcome: 'completed' })).toBe(1);
    expect(await value(duration, { queue: 'sms.inbound', outcome: 'failed' })).toBe(0);
    // Nothing at warn or above: waiting for children is not "job attempt failed; will retry".
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    expect(lines).toContainEqual(
      expect.objectContaining({ queue: 'sms.inbound', msg: 'job waiting-children' }),
    );
  });

  it("attaches a child only where BullMQ can resolve it: not a finished job, not another parent's", async () => {
    const inbound = queues.queue('sms.inbound');
    const parentOf = async (messageId: string) => {
      const { jobId } = await queues.enqueue('sms.inbound', { messageId });
      const job = await inbound.getJob(jobId);
      if (job === undefined) throw new Error(`no parent job ${jobId}`);
      return job;
    };
    const first = await parentOf('4b8d6f21-3c5e-4a7b-9d0f-1e2a3b4c5d6e');
    const second = await parentOf('5c9e7a32-4d6f-4b8c-8e1a-2f3b4c5d6e7f');
    const image = { messageId: '6d0f8b43-5e7a-4c9d-9f2b-3a4c5d6e7f80', mediaIndex: 1 };
    const imageJobId = `image-${image.messageId}-1`;

    // Queued on its own (no parent yet): attached to the first parent that asks.
    await queues.enqueue('image.analyze', image);
    await expect(queues.addChild(first, 'image.analyze', image)).resolves.toEqual({
      jobId: imageJobId,
      outcome: 'added',
    });
    expect((await queues.queue('image.analyze').getJob(imageJobId))?.parentKey).toBe(
      `${redis.prefix}:sms.inbound:${first.id}`,
    );
    await expect(queues.addChild(second, 'image.analyze', image)).resolves.toEqual({
      jobId: imageJobId,
      outcome: 'other-parent',
    });

    // Finished already (from the flow test above): never a dependency again.
    const finished = { messageId: '3a7c5e10-2b4d-4f6a-8c9e-0d1f2a3b4c5d', mediaIndex: 0 };
    await expect(queues.addChild(second, 'image.analyze', finished)).resolves.toEqual({
      jobId: `image-${finished.messageId}-0`,
      outcome: 'finished',
    });
    await expect(queues.addChild(second, 'image.analyze', { ...finished, mediaIndex: 10 })).rejects.toThrow(
      /mediaIndex/,
    );
    await inbound.obliterate({ force: true });
    await queues.queue('image.analyze').obliterate({ force: true });
  });

  it('closes gracefully: the active job finishes, jobs not started stay queued', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const seen: string[] = [];
    const workers = await startWorkers({
      connection: redis.connection,
      prefix: redis.prefix,
      owns: ['conversation.summarize'],
      concurrency: 1,
      handlers: {
        'conversation.summarize': async (payload: JobPayload<'conversation.summarize'>) => {
          seen.push(payload.conversationId);
          started();
          await gate;
          return { outcome: 'summarized', writtenBy: 'rules' };
        },
      },
      logger: silent,
    });
    const a = '11111111-1111-4111-8111-111111111111';
    const b = '22222222-2222-4222-8222-222222222222';
    const { jobId: firstId } = await queues.enqueue('conversation.summarize', { conversationId: a });
    await running;
    const { jobId: secondId } = await queues.enqueue('conversation.summarize', { conversationId: b });

    let closed = false;
    const closing = workers.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closed).toBe(false);
    release();
    await closing;

    const queue = queues.queue('conversation.summarize');
    expect(await (await queue.getJob(firstId))?.getState()).toBe('completed');
    expect(await (await queue.getJob(secondId))?.getState()).toBe('waiting');
    expect(seen).toEqual([a]);
  });
});

@Injectable()
class HealthCheckHandler {
  @OnJob('monitor.health')
  async check(): Promise<JobResult<'monitor.health'>> {
    return healthy;
  }
}
@Module({ providers: [HealthCheckHandler] })
class HealthCheckModule {}

const testConfig = defineConfig({ ...coreConfigFields, port: portField(3999) });

describe('PlatformModule in a Nest app', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let config: CoreConfig & { port: number };

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    config = loadConfig(
      testConfig,
      {},
      {
        databaseUrl: db.url,
        redisUrl: redis.url,
        bullmqPrefix: redis.prefix,
        host: '127.0.0.1',
        logLevel: 'silent',
      },
    );
  });
  afterAll(async () => {
    await redis?.cleanup();
    await db?.drop();
  });

  const appModule = (owns: ('monitor.health' | 'monitor.predict')[], cfg = config) => {
    @Module({
      imports: [
        PlatformModule.forRoot({ name: 'test', config: cfg, workers: { owns } }),
        ...(owns.length > 0 ? [HealthCheckModule] : []),
      ],
    })
    class TestAppModule {}
    return TestAppModule;
  };

  it('runs @OnJob handlers of the queues the service owns', async () => {
    const service = await createServiceApp({ module: appModule(['monitor.health']), name: 'test', config });
    try {
      const result = await service.app.get(JobQueues).enqueueAndWait('monitor.health', {}, 10_000);
      expect(result).toEqual(healthy);
    } finally {
      await service.close();
    }
  });

  it('does not start when a declared queue has no handler', async () => {
    await expect(
      createServiceApp({ module: appModule(['monitor.health', 'monitor.predict']), name: 'test', config }),
    ).rejects.toThrow('no handler for queue monitor.predict');
  });

  it('does not start when a handler serves a queue the service does not declare', async () => {
    const withoutWorkers = await createServiceApp({ module: appModule([]), name: 'test', config });
    await withoutWorkers.close();
    @Module({ imports: [PlatformModule.forRoot({ name: 'test', config }), HealthCheckModule] })
    class Undeclared {}
    await expect(createServiceApp({ module: Undeclared, name: 'test', config })).rejects.toThrow(
      'a handler for queue monitor.health, which this service does not declare',
    );
  });

  it('reports readiness, and 503 naming the failed check when Redis is unreachable', async () => {
    const ok = await createServiceApp({
      module: appModule(['monitor.health']),
      name: 'test',
      config,
      listenPort: 0,
    });
    try {
      const response = await fetch(`${ok.url}/health/ready`);
      expect(response.status).toBe(200);
      expect((await fetch(`${ok.url}/health/live`)).status).toBe(200);
      const metrics = await (await fetch(`${ok.url}/metrics`)).text();
      expect(metrics).toContain('process_cpu_user_seconds_total');
      expect(metrics).toContain('sprout_jobs_processed_total');
    } finally {
      await ok.close();
    }

    const broken = { ...config, redisUrl: 'redis://127.0.0.1:1' };
    const down = await createServiceApp({
      module: appModule([], broken),
      name: 'test',
      config: broken,
      listenPort: 0,
    });
    try {
      const response = await fetch(`${down.url}/health/ready`);
      expect(response.status).toBe(503);
      const body = (await response.json()) as {
        checks: { database: { status: string }; redis: { status: string } };
      };
      expect(body.checks.database.status).toBe('up');
      expect(body.checks.redis.status).toBe('down');
      expect((await fetch(`${down.url}/health/live`)).status).toBe(200);
    } finally {
      await down.close();
    }
  });
});
