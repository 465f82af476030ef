import { Injectable, Module } from '@nestjs/common';
import type { JobPayload } from '@sprout/contracts';
import {
  JobQueues,
  JobTimeoutError,
  OnJob,
  PlatformModule,
  WorkerConfigurationError,
  coreConfigFields,
  createLogger,
  createServiceApp,
  defineConfig,
  loadConfig,
  portField,
  startWorkers,
  type CoreConfig,
} from '@sprout/platform';
import { type TestDatabase, type TestRedis, createTestDatabase, createTestRedis } from '@sprout/testing';

const silent = createLogger({ name: 'test', level: 'silent' });

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
        handlers: { 'monitor.health': async () => 'ok' } as never,
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
      handlers: { 'monitor.health': async () => ({ healthy: true }) },
      logger: silent,
    });
    try {
      await expect(queues.enqueueAndWait('monitor.health', {}, 10_000)).resolves.toEqual({ healthy: true });
    } finally {
      await workers.close();
    }
    await expect(queues.enqueueAndWait('monitor.predict', {}, 300)).rejects.toBeInstanceOf(JobTimeoutError);
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
          return 'done';
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
  async check(): Promise<string> {
    return 'checked';
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
      expect(result).toBe('checked');
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
