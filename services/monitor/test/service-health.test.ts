import { type ChildProcess, spawn } from 'node:child_process';
import {
  JobQueues,
  Metrics,
  createLogger,
  createRedisConnection,
  findFreePort,
  startWorkers,
} from '@sprout/platform';
import { QUEUE_NAMES } from '@sprout/contracts';
import {
  type FakeOpenAI,
  type FakeTwilio,
  type TestDatabase,
  type TestRedis,
  createTestDatabase,
  startOnStores,
  useClosable,
} from '@sprout/testing';
import { Redis } from 'ioredis';
import { type MonitorConfig } from '../src/config';
import { ProviderClients } from '../src/providers/provider-clients';
import { ServiceHealthProcessor } from '../src/service-health/service-health.processor';
import {
  ServiceHealthService,
  queueProblem,
  waitingSince,
} from '../src/service-health/service-health.service';
import {
  type CheckOutcome,
  FAILURE_THRESHOLDS,
  monitorKeys,
  readServiceHealth,
  recordHealthChecks,
} from '../src/state/monitor-state';
import { startProviderFakes } from './support/providers';

const silent = createLogger({ name: 'monitor-test', level: 'silent' });

/** A redis-server of the test's own on a loopback port (nothing kept on disk), up once it answers PING. */
const startRedisServer = async (port: number): Promise<ChildProcess> => {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
  });
  const probe = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await probe.connect();
        await probe.ping();
        return child;
      } catch (error) {
        if (attempt > 100) {
          child.kill('SIGKILL');
          throw error;
        }
        probe.disconnect();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    probe.disconnect();
  }
};

const stopRedisServer = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
};

// The health service on its own (no scheduler running beside it), against real Postgres and Redis
// and the fake OpenAI and Twilio servers through the real SDKs.
describe('service health checks and thresholds', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let openai: FakeOpenAI;
  let twilio: FakeTwilio;
  let config: MonitorConfig;
  let health: ServiceHealthService;
  let queues: JobQueues;

  const build = (overrides: Partial<MonitorConfig>, metrics = new Metrics('monitor-test', false)) => {
    const serviceConfig = { ...config, ...overrides };
    return new ServiceHealthService(
      db.dataSource,
      redis.connection,
      queues,
      new ProviderClients(serviceConfig),
      serviceConfig,
      silent,
      metrics,
    );
  };

  const h = useClosable(() =>
    startOnStores(async (stores) => {
      // Generous: a loaded machine must not fail the healthy round; the timeout tests set their own.
      ({ openai, twilio, config } = await startProviderFakes(stores, { checkTimeoutMs: 10_000 }));
      return new JobQueues({ connection: stores.redis.connection, prefix: stores.redis.prefix });
    }),
  );

  beforeAll(() => {
    ({ db, redis, service: queues } = h);
    health = build({});
  });

  beforeEach(async () => {
    openai.reset();
    twilio.reset();
    const keys = monitorKeys(redis.prefix);
    await redis.connection.del(keys.services, keys.failures, keys.overall, keys.queues, keys.tier);
  });

  it('checks every dependency through the real clients and records a healthy state', async () => {
    const report = await health.checkAll();

    expect(report.overallHealth).toBe('healthy');
    expect(Object.keys(report.services).sort()).toEqual(['ai_provider', 'database', 'redis', 'sms_provider']);
    expect(Object.keys(report.queues).sort()).toEqual([...QUEUE_NAMES].sort());
    for (const state of Object.values(report.services)) {
      expect(state).toMatchObject({ available: true, consecutiveFailures: 0, lastError: null });
      expect(Date.parse(state.lastCheck ?? '')).not.toBeNaN();
    }
    expect(openai.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
    expect(openai.requests[0]?.headers.authorization).toBe(`Bearer ${openai.apiKey}`);
    expect(twilio.sent).toHaveLength(0);
    expect(await readServiceHealth(redis.connection, redis.prefix)).toEqual(report);
  });

  it('marks the AI provider unavailable only after 3 consecutive failures and recovers on success', async () => {
    openai.failNext({ status: 500, times: 3 });
    const seen: Array<[boolean, number, string]> = [];
    for (let round = 0; round < 4; round += 1) {
      const report = await health.checkAll();
      const state = report.services.ai_provider!;
      seen.push([state.available, state.consecutiveFailures, report.overallHealth]);
    }
    expect(seen).toEqual([
      [true, 1, 'healthy'],
      [true, 2, 'healthy'],
      [false, 3, 'degraded'],
      [true, 0, 'healthy'],
    ]);
    expect(FAILURE_THRESHOLDS.ai_provider).toBe(3);
  });

  it('counts a wrong OpenAI key and a timeout as failures', async () => {
    const wrongKey = build({ openaiApiKey: 'sk-wrong' });
    const outcome = await wrongKey.check('ai_provider');
    expect(outcome).toMatchObject({ ok: false });
    expect(outcome.error).toMatch(/Incorrect API key/);

    openai.delayNext(3_000);
    const slow = await build({ checkTimeoutMs: 200 }).check('ai_provider');
    expect(slow.ok).toBe(false);
  });

  it('treats the offline advisor as an available AI provider without a key', async () => {
    const offline = build({ openaiApiKey: undefined });
    const outcome = await offline.check('ai_provider');
    expect(outcome).toMatchObject({ ok: true, detail: expect.stringContaining('offline advisor') });
    expect(openai.requests).toHaveLength(0);
  });

  it('marks the SMS provider unavailable after 3 failures (5xx, bad credentials) and recovers', async () => {
    twilio.failNext({ status: 503, times: 2 });
    const first = await health.checkAll();
    const second = await health.checkAll();
    const badCredentials = build({ twilioAuthToken: 'not-the-token' });
    const third = await badCredentials.checkAll();
    const recovered = await health.checkAll();

    expect([first, second, third, recovered].map((r) => r.services.sms_provider?.available)).toEqual([
      true,
      true,
      false,
      true,
    ]);
    expect(third.services.sms_provider?.consecutiveFailures).toBe(3);
    expect(third.services.sms_provider?.lastError).toBeTruthy();
    expect(third.overallHealth).toBe('degraded');
    expect(recovered.services.sms_provider?.consecutiveFailures).toBe(0);
    expect(twilio.sent).toHaveLength(0);
  });

  it('checks the SMS provider by fetching the Twilio account through the SDK', async () => {
    const outcome = await health.check('sms_provider');
    // The friendly name and status come only from GET /2010-04-01/Accounts/{sid}.json.
    expect(outcome).toMatchObject({
      ok: true,
      error: null,
      detail: `twilio account Fake Twilio account (active) at ${twilio.url}`,
    });

    const otherAccount = await build({ twilioAccountSid: `AC${'1'.repeat(32)}` }).check('sms_provider');
    expect(otherAccount.ok).toBe(false);
    twilio.delayNext(3_000);
    const slow = await build({ checkTimeoutMs: 200 }).check('sms_provider');
    expect(slow).toMatchObject({ ok: false, error: expect.stringMatching(/timed out|did not answer/) });
    expect(twilio.sent).toHaveLength(0);
  });

  it('holds the database to 5 consecutive failures', async () => {
    const failure = (): CheckOutcome => ({
      service: 'database',
      ok: false,
      checkedAt: new Date(),
      latencyMs: null,
      error: 'connection refused',
      detail: null,
    });
    const availability: boolean[] = [];
    for (let round = 0; round < 5; round += 1) {
      const report = await recordHealthChecks(redis.connection, redis.prefix, {
        services: [failure()],
        queues: [],
        tier: null,
      });
      availability.push(report.services.database!.available);
    }
    expect(availability).toEqual([true, true, true, true, false]);
    const ok = await health.check('database');
    expect(ok.ok).toBe(true);
    const recovered = await recordHealthChecks(redis.connection, redis.prefix, {
      services: [ok],
      queues: [],
      tier: null,
    });
    expect(recovered.services.database).toMatchObject({ available: true, consecutiveFailures: 0 });
  });

  it('reports a failing database check', async () => {
    const broken = await createTestDatabase();
    await broken.drop();
    const outcome = await new ServiceHealthService(
      broken.dataSource,
      redis.connection,
      queues,
      new ProviderClients(config),
      config,
      silent,
      new Metrics('monitor-test', false),
    ).check('database');
    expect(outcome.ok).toBe(false);
  });

  it('marks a queue with waiting jobs and no worker unavailable after 3 rounds, and available with a worker', async () => {
    await queues.enqueue('survey.lifecycle', {});
    const seen: Array<[boolean | undefined, number | undefined, string]> = [];
    for (let round = 0; round < 3; round += 1) {
      const report = await health.checkAll();
      const state = report.queues['survey.lifecycle'];
      seen.push([state?.available, state?.consecutiveFailures, report.overallHealth]);
    }
    expect(seen).toEqual([
      [true, 1, 'healthy'],
      [true, 2, 'healthy'],
      [false, 3, 'degraded'],
    ]);
    const stored = await readServiceHealth(redis.connection, redis.prefix);
    expect(stored?.queues['survey.lifecycle']).toMatchObject({
      available: false,
      waiting: 1,
      workers: 0,
      problem: '1 job waiting and no worker',
    });
    expect(stored?.queues['survey.lifecycle']?.oldestWaitingSeconds).toBeGreaterThanOrEqual(0);

    // A worker takes the job: the queue moves again.
    const worker = await startWorkers({
      connection: redis.connection,
      prefix: redis.prefix,
      owns: ['survey.lifecycle'],
      logger: silent,
      handlers: { 'survey.lifecycle': async () => ({ campaigns: 0, transitions: [], newlyTargeted: 0 }) },
    });
    try {
      for (let i = 0; i < 50 && (await queues.queue('survey.lifecycle').getWaitingCount()) > 0; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const after = await health.checkAll();
      expect(after.queues['survey.lifecycle']).toMatchObject({ available: true, consecutiveFailures: 0 });
      expect(after.queues['survey.lifecycle']?.workers).toBeGreaterThanOrEqual(1);
      expect(after.overallHealth).toBe('healthy');
    } finally {
      await worker.close();
    }
  });

  it('says why a queue is not moving, not counting a planned delay as waiting', () => {
    expect(queueProblem({ waiting: 0, workers: 0, oldestWaitingSeconds: null })).toBeNull();
    expect(queueProblem({ waiting: 4, workers: 0, oldestWaitingSeconds: 5 })).toBe(
      '4 jobs waiting and no worker',
    );
    expect(queueProblem({ waiting: 4, workers: 2, oldestWaitingSeconds: 601 })).toBe(
      'The oldest waiting job has waited 10 minutes',
    );
    expect(queueProblem({ waiting: 4, workers: 2, oldestWaitingSeconds: 599 })).toBeNull();
    expect(waitingSince({ timestamp: 1_000, delay: 6 * 3_600_000 })).toBe(1_000 + 6 * 3_600_000);
    expect(waitingSince({ timestamp: 1_000, delay: 0, processedOn: 90_000 })).toBe(90_000);
  });

  it("records the tier of the newest reply as the pipeline's tier", async () => {
    const ds = db.dataSource;
    expect(await health.currentTier()).toEqual({ tier: null, at: null });
    const at = new Date(Date.now() - 60_000);
    await ds.query(
      `INSERT INTO llm_calls (purpose, model, tier, error, created_at) VALUES
         ('reply', 'gpt-4o-mini', 'primary', 'server: 500', $1),
         ('reply', NULL, 'template', NULL, $2),
         ('summary', 'gpt-4o-mini', 'primary', NULL, $3)`,
      [new Date(at.getTime() - 1000), at, new Date(at.getTime() + 1000)],
    );
    await health.checkAll();
    const stored = await redis.connection.get(monitorKeys(redis.prefix).tier);
    expect(JSON.parse(stored ?? 'null')).toEqual({ tier: 'template', at: at.toISOString() });
    await ds.query('DELETE FROM llm_calls');
  });

  it('turns Redis unavailable after 5 failures while it is down, and carries the counts into Redis when it returns', async () => {
    const port = await findFreePort();
    let server = await startRedisServer(port);
    // A connection as the monitor's own (ioredis reconnecting, commands queued while down).
    const connection = createRedisConnection(`redis://127.0.0.1:${port}`, 'monitor-test');
    const ownQueues = new JobQueues({ connection, prefix: redis.prefix });
    for (const name of QUEUE_NAMES) ownQueues.queue(name).on('error', () => undefined);
    const serviceConfig = { ...config, checkTimeoutMs: 500 };
    const cut = new ServiceHealthService(
      db.dataSource,
      connection,
      ownQueues,
      new ProviderClients(serviceConfig),
      serviceConfig,
      silent,
      new Metrics('monitor-test', false),
    );
    try {
      expect((await cut.checkAll()).services.redis).toMatchObject({
        available: true,
        consecutiveFailures: 0,
      });

      await stopRedisServer(server);
      openai.failNext({ status: 500, times: 7 });
      const seen: Array<[boolean | undefined, number | undefined, number | undefined]> = [];
      for (let round = 0; round < 5; round += 1) {
        const report = await cut.checkAll();
        seen.push([
          report.services.redis?.available,
          report.services.redis?.consecutiveFailures,
          report.services.ai_provider?.consecutiveFailures,
        ]);
      }
      expect(seen).toEqual([
        [true, 1, 1],
        [true, 2, 2],
        [true, 3, 3],
        [true, 4, 4],
        [false, 5, 5],
      ]);

      // Redis returns empty (it keeps nothing on disk): the AI provider's 6th failure is stored as 6.
      server = await startRedisServer(port);
      for (let i = 0; i < 100 && connection.status !== 'ready'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const back = await cut.checkAll();
      expect(back.services.redis).toMatchObject({ available: true, consecutiveFailures: 0 });
      expect(back.services.ai_provider).toMatchObject({ available: false, consecutiveFailures: 6 });
      const keys = monitorKeys(redis.prefix);
      expect(await connection.hget(keys.failures, 'ai_provider')).toBe('6');
      const stored = await readServiceHealth(connection, redis.prefix);
      expect(stored?.services.ai_provider?.consecutiveFailures).toBe(6);
      // Recorded in Redis again: the next failure counts on from Redis.
      const next = await cut.checkAll();
      expect(next.services.ai_provider?.consecutiveFailures).toBe(7);
      expect(await connection.hget(keys.failures, 'ai_provider')).toBe('7');
    } finally {
      await ownQueues.close().catch(() => undefined);
      connection.disconnect();
      await stopRedisServer(server);
    }
  });

  it('counts failures in memory while Redis is down, and the watchdog checks without BullMQ', async () => {
    // A client of a Redis that is not there: every command fails at once.
    const deadRedis = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    deadRedis.on('error', () => undefined);
    const deadQueues = new JobQueues({ connection: deadRedis, prefix: redis.prefix });
    for (const name of QUEUE_NAMES) deadQueues.queue(name).on('error', () => undefined);
    const metrics = new Metrics('monitor-test', false);
    const serviceConfig = { ...config, checkTimeoutMs: 500 };
    const cut = new ServiceHealthService(
      db.dataSource,
      deadRedis,
      deadQueues,
      new ProviderClients(serviceConfig),
      serviceConfig,
      silent,
      metrics,
    );
    try {
      const processor = new ServiceHealthProcessor(cut, deadQueues, silent);
      const availability: Array<boolean | undefined> = [];
      for (let round = 0; round < 5; round += 1) {
        // The watchdog runs a round itself: no round has completed for over a minute.
        expect(await processor.checkIfOverdue(Date.now() + 2 * 60_000)).toBe(true);
        const gauge = await metrics.registry.getSingleMetric('sprout_monitored_service_available')?.get();
        availability.push(gauge?.values.find((v) => v.labels.target === 'redis')?.value === 1);
      }
      expect(availability).toEqual([true, true, true, true, false]);
      // Just after a round it waits for BullMQ again.
      expect(await processor.checkIfOverdue()).toBe(false);
      const database = await metrics.registry.getSingleMetric('sprout_monitored_service_available')?.get();
      expect(database?.values.find((v) => v.labels.target === 'database')?.value).toBe(1);
    } finally {
      await deadQueues.close();
      deadRedis.disconnect();
    }
  });
});
