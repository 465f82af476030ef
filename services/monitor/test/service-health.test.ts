import { Metrics, loadConfig } from '@sprout/platform';
import {
  FakeOpenAI,
  FakeTwilio,
  type TestDatabase,
  type TestRedis,
  createTestDatabase,
  createTestRedis,
} from '@sprout/testing';
import { type MonitorConfig, monitorConfig } from '../src/config';
import { ProviderClients } from '../src/providers/provider-clients';
import { ServiceHealthService } from '../src/service-health/service-health.service';
import {
  type CheckOutcome,
  FAILURE_THRESHOLDS,
  monitorKeys,
  readServiceHealth,
  recordHealthChecks,
} from '../src/state/monitor-state';

// The health service on its own (no scheduler running beside it), against real Postgres and Redis
// and the fake OpenAI and Twilio servers through the real SDKs.
describe('service health checks and thresholds', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let openai: FakeOpenAI;
  let twilio: FakeTwilio;
  let config: MonitorConfig;
  let health: ServiceHealthService;

  const build = (overrides: Partial<MonitorConfig>): ServiceHealthService => {
    const serviceConfig = { ...config, ...overrides };
    return new ServiceHealthService(
      db.dataSource,
      redis.connection,
      new ProviderClients(serviceConfig),
      serviceConfig,
      new Metrics('monitor-test', false),
    );
  };

  beforeAll(async () => {
    [db, redis, openai, twilio] = await Promise.all([
      createTestDatabase(),
      createTestRedis(),
      FakeOpenAI.start(),
      FakeTwilio.start(),
    ]);
    config = loadConfig(
      monitorConfig,
      {},
      {
        databaseUrl: db.url,
        redisUrl: redis.url,
        bullmqPrefix: redis.prefix,
        logLevel: 'silent',
        openaiApiKey: openai.apiKey,
        openaiBaseUrl: openai.baseURL,
        twilioAccountSid: twilio.accountSid,
        twilioAuthToken: twilio.authToken,
        twilioApiBaseUrl: twilio.url,
        checkTimeoutMs: 1_000,
      },
    );
    health = build({});
  });

  afterAll(async () => {
    await Promise.all([openai?.close(), twilio?.close()]);
    await redis?.cleanup();
    await db?.drop();
  });

  beforeEach(async () => {
    openai.reset();
    twilio.reset();
    const keys = monitorKeys(redis.prefix);
    await redis.connection.del(keys.services, keys.failures, keys.overall);
  });

  it('checks every dependency through the real clients and records a healthy state', async () => {
    const report = await health.checkAll();

    expect(report.overallHealth).toBe('healthy');
    expect(Object.keys(report.services).sort()).toEqual(['ai_provider', 'database', 'redis', 'sms_provider']);
    for (const state of Object.values(report.services)) {
      expect(state).toMatchObject({ available: true, consecutiveFailures: 0 });
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
      const report = await recordHealthChecks(redis.connection, redis.prefix, [failure()]);
      availability.push(report.services.database!.available);
    }
    expect(availability).toEqual([true, true, true, true, false]);
    const ok = await health.check('database');
    expect(ok.ok).toBe(true);
    const recovered = await recordHealthChecks(redis.connection, redis.prefix, [ok]);
    expect(recovered.services.database).toMatchObject({ available: true, consecutiveFailures: 0 });
  });

  it('reports a failing database check', async () => {
    const broken = await createTestDatabase();
    await broken.drop();
    const outcome = await new ServiceHealthService(
      broken.dataSource,
      redis.connection,
      new ProviderClients(config),
      config,
      new Metrics('monitor-test', false),
    ).check('database');
    expect(outcome.ok).toBe(false);
  });
});
