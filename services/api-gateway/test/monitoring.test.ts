// The monitoring endpoints through the real app, on an empty database and
// on seeded data. Health and predictions come from the monitor service, which the gateway never
// imports: here stand-in workers on monitor.health and monitor.predict play its part of the
// contract (write the Redis state under monitorStateKeys, answer the job result), as the
// simulator tests do for sms.inbound; services/monitor's own tests cover the real checks.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  type ApiUsage,
  type ConversationQuality,
  FAILURE_THRESHOLDS,
  type FallbackReport,
  type ForceHealthCheckResponse,
  JOB_NOT_FAILED,
  JOB_NOT_FOUND,
  type JobResult,
  type MonitoringMessage,
  PROACTIVE_STATE_MISSING,
  PROACTIVE_STATE_TTL_SECONDS,
  QUEUE_NAMES,
  QUEUE_NOT_FOUND,
  type QueueJobActionResponse,
  type QueuesResponse,
  type ServiceHealthReport,
  type StoredQueueCheck,
  type StoredServiceCheck,
  type SmsCircuitState,
  monitorStateKeys,
  smsCircuitKey,
} from '@sprout/contracts';
import {
  JobQueues,
  LOGGER,
  type Logger,
  type RunningWorkers,
  UnrecoverableError,
  createLogger,
  startWorkers,
} from '@sprout/platform';
import { clearOfUtcMidnight } from '@sprout/testing';
import type { DataSource } from 'typeorm';
import { startOfUtcDay } from '../src/dashboard/dashboard.service';
import { usageAlerts } from '../src/monitoring/usage-rules';
import { login, startGateway, type TestGateway } from './support/gateway';
import { insertConversation } from './support/seed';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const FORCE_TIMEOUT_MS = 2_500;

let gw: TestGateway;
let app: NestFastifyApplication;
let cookie: string;
let ds: DataSource;
const silent = createLogger({ name: 'monitoring-test', level: 'silent' });
const workers: RunningWorkers[] = [];

beforeAll(async () => {
  // Read by the monitoring module when it starts: a forced check without a monitor gives up soon.
  process.env.MONITOR_FORCE_CHECK_TIMEOUT_MS = String(FORCE_TIMEOUT_MS);
  gw = await startGateway();
  app = gw.app;
  ds = gw.db.dataSource;
  cookie = await login(app);
});

afterAll(async () => {
  for (const worker of workers) await worker.close();
  await gw?.close();
  delete process.env.MONITOR_FORCE_CHECK_TIMEOUT_MS;
});

const get = async <T>(url: string): Promise<{ status: number; body: T }> => {
  const response = await app.inject({ method: 'GET', url, headers: { cookie } });
  return { status: response.statusCode, body: response.json<T>() };
};
const send = async <T>(method: 'POST' | 'DELETE', url: string): Promise<{ status: number; body: T }> => {
  const response = await app.inject({ method, url, headers: { cookie } });
  return { status: response.statusCode, body: response.json<T>() };
};

const keys = () => monitorStateKeys(gw.redis.prefix);

describe('on an empty database, before the monitor has run', () => {
  it('answers zeros for the dashboard cards, usage and quality, and no messages', async () => {
    expect(await get('/api/admin/metrics')).toEqual({
      status: 200,
      body: { activeUsers: 0, messagesToday: 0, avgResponseTime: 0, todaysCost: 0 },
    });
    expect(await get('/api/admin/messages')).toEqual({ status: 200, body: [] });

    const usage = await get<ApiUsage>('/api/monitoring/api-usage');
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual({
      calls: 0,
      cost: 0,
      tokens: 0,
      errors: 0,
      averageResponseTime: 0,
      responseTimes: [],
      date: new Date().toISOString().slice(0, 10),
      alerts: [],
    });

    expect(await get<ConversationQuality>('/api/monitoring/conversation-quality')).toEqual({
      status: 200,
      body: {
        healthScore: 0,
        weeklyMetrics: {
          total_users: 0,
          returning_users: 0,
          active_users: 0,
          total_messages: 0,
          substantive_responses: 0,
          detailed_responses: 0,
          avg_messages_per_user: 0,
          avg_response_time: 0,
          avg_response_length: 0,
          active_days: 0,
          slow_responses: 0,
          total_responses: 0,
        },
      },
    });
  });

  it('shows every service and queue as not checked yet, degraded and stale', async () => {
    const { status, body } = await get<ServiceHealthReport>('/api/monitoring/service-health');
    expect(status).toBe(200);
    expect(body.overallHealth).toBe('degraded');
    expect(body.stale).toBe(true);
    expect(body.lastRoundAt).toBeNull();
    expect(Object.keys(body.services)).toEqual(['database', 'redis', 'ai_provider', 'sms_provider']);
    expect(body.services.ai_provider).toEqual({
      label: 'AI Provider',
      threshold: 3,
      available: false,
      lastCheck: null,
      consecutiveFailures: 0,
      lastError: null,
      latencyMs: null,
      detail: null,
      checkedBy: null,
    });
    expect(body.monitorStateError).toBeNull();
    expect(body.services.database?.threshold).toBe(5);
    expect(body.services.sms_provider?.threshold).toBe(3);
    expect(body.queues.map((q) => q.queue)).toEqual([...QUEUE_NAMES]);
    expect(body.queues.every((q) => q.lastCheck === null)).toBe(true);
    expect(body.fallback.chain.map((t) => t.label)).toEqual([
      'Normal flow',
      'Limited AI',
      'Template responses',
      'Minimal response',
    ]);
    expect(body.fallback.current).toEqual({ tier: null, at: null });
    // No circuit written by sms-gateway yet: sending is normal.
    expect(body.smsSending).toEqual({
      state: 'closed',
      consecutiveFailures: 0,
      openedAt: null,
      retryAt: null,
      lastError: null,
      updatedAt: null,
    });
  });

  it("shows sms-gateway's Twilio send circuit as Redis holds it", async () => {
    const key = smsCircuitKey(gw.redis.prefix);
    const openedAt = Date.now() - 2 * MINUTE;
    const open: SmsCircuitState = {
      state: 'open',
      consecutiveFailures: 5,
      openedAt,
      retryAt: openedAt + 3 * MINUTE,
      lastError: 'Service Unavailable',
      updatedAt: openedAt,
    };
    try {
      await gw.redis.connection.set(key, JSON.stringify(open));
      const { status, body } = await get<ServiceHealthReport>('/api/monitoring/service-health');
      expect(status).toBe(200);
      expect(body.smsSending).toEqual({
        state: 'open',
        consecutiveFailures: 5,
        openedAt: new Date(openedAt).toISOString(),
        retryAt: new Date(openedAt + 3 * MINUTE).toISOString(),
        lastError: 'Service Unavailable',
        updatedAt: new Date(openedAt).toISOString(),
      });

      await gw.redis.connection.set(key, JSON.stringify({ ...open, state: 'half-open' }));
      expect((await get<ServiceHealthReport>('/api/monitoring/service-health')).body.smsSending?.state).toBe(
        'half-open',
      );

      // A value that is not a circuit is not known, not "closed".
      await gw.redis.connection.set(key, '{"state":"broken"}');
      expect((await get<ServiceHealthReport>('/api/monitoring/service-health')).body.smsSending).toBeNull();
    } finally {
      await gw.redis.connection.del(key);
    }
    expect((await get<ServiceHealthReport>('/api/monitoring/service-health')).body.smsSending?.state).toBe(
      'closed',
    );
  });

  it('answers 503 for proactive data the monitor has not written', async () => {
    for (const path of ['system-health', 'predictions', 'trends']) {
      const { status, body } = await get<{ message: string }>(`/api/monitoring/proactive/${path}`);
      expect(status).toBe(503);
      expect(body.message).toBe(PROACTIVE_STATE_MISSING);
    }
  });

  it('answers 504 for a forced check when no monitor answers in time', async () => {
    const health = await send<{ message: string }>('POST', '/api/monitoring/force-health-check');
    expect(health.status).toBe(504);
    expect(health.body.message).toBe(
      'The monitor did not answer within 3 s. Is the monitor service running?',
    );
    const predictions = await send<{ message: string }>('POST', '/api/monitoring/proactive/force-check');
    expect(predictions.status).toBe(504);
    // Those jobs stay queued for a monitor to pick up: none is running here.
    await gw.redis.connection.del(keys().services);
    await app.get(JobQueues).queue('monitor.health').obliterate({ force: true });
    await app.get(JobQueues).queue('monitor.predict').obliterate({ force: true });
  });

  it('lists the fallback chain with no replies, and every queue empty', async () => {
    const fallback = await get<FallbackReport>('/api/monitoring/fallback');
    expect(fallback.status).toBe(200);
    expect(fallback.body.chain.map((t) => [t.tier, t.last24Hours, t.last7Days])).toEqual([
      ['primary', 0, 0],
      ['fallback', 0, 0],
      ['template', 0, 0],
      ['minimal', 0, 0],
    ]);
    expect(fallback.body.current).toEqual({ tier: null, at: null });
    expect(fallback.body.fallbackRate24Hours).toBe(0);
    expect(fallback.body.recentFallbacks).toEqual([]);
    expect(fallback.body.thresholds).toEqual([
      { service: 'database', label: 'Database', failures: 5 },
      { service: 'redis', label: 'Redis', failures: 5 },
      { service: 'ai_provider', label: 'AI Provider', failures: 3 },
      { service: 'sms_provider', label: 'SMS Provider', failures: 3 },
    ]);

    const queues = await get<QueuesResponse>('/api/monitoring/queues');
    expect(queues.status).toBe(200);
    expect(queues.body.queues.map((q) => q.queue)).toEqual([...QUEUE_NAMES]);
    for (const queue of queues.body.queues) {
      expect(queue).toMatchObject({
        waiting: 0,
        active: 0,
        delayed: 0,
        completed: 0,
        failed: 0,
        failedJobs: [],
      });
    }
  });
});

describe('on seeded data', () => {
  let now: Date;
  let today: (fraction: number) => Date;
  let alice: string;
  let bob: string;
  let convA: string;
  let convB: string;
  const ids: Record<string, string> = {};

  const addUser = async (
    phone: string,
    zip: string | null,
    createdAt: Date,
    test = false,
  ): Promise<string> => {
    const [row] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO users (phone_number, zip_code, created_at, is_test_user) VALUES ($1, $2, $3, $4) RETURNING id`,
      [phone, zip, createdAt, test],
    );
    return row!.id;
  };
  const addMessage = async (
    key: string,
    userId: string,
    conversationId: string,
    at: Date,
    fields: {
      direction: 'inbound' | 'outbound';
      chars?: number;
      responseMs?: number;
      kind?: string;
      test?: boolean;
    },
  ): Promise<void> => {
    const [row] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO messages (user_id, conversation_id, direction, content, status, kind, response_time_ms, is_test_user, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        userId,
        conversationId,
        fields.direction,
        `${key} `.padEnd(fields.chars ?? 20, 'x'),
        fields.direction === 'inbound' ? 'received' : 'delivered',
        fields.kind ?? 'reply',
        fields.responseMs ?? null,
        fields.test ?? false,
        at,
      ],
    );
    ids[key] = row!.id;
  };
  const addCall = async (
    at: Date,
    fields: {
      conversationId?: string | null;
      purpose?: string;
      model: string | null;
      tier: string;
      error?: string;
      cost?: number;
      tokens?: number;
      latencyMs?: number;
      test?: boolean;
    },
  ): Promise<void> => {
    await ds.query(
      `INSERT INTO llm_calls (conversation_id, purpose, model, tier, error, cost, total_tokens, latency_ms, is_test_user, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        fields.conversationId ?? null,
        fields.purpose ?? 'reply',
        fields.model,
        fields.tier,
        fields.error ?? null,
        fields.cost ?? 0,
        fields.tokens ?? 0,
        fields.latencyMs ?? null,
        fields.test ?? false,
        at,
      ],
    );
  };

  beforeAll(async () => {
    // The UTC day must not end while the test runs ("today" would change under it).
    now = await clearOfUtcMidnight(5 * MINUTE);
    const todayStart = startOfUtcDay(now);
    today = (fraction: number) =>
      new Date(todayStart.getTime() + (now.getTime() - todayStart.getTime()) * fraction);

    alice = await addUser('+15035550101', '97201', new Date(now.getTime() - 30 * DAY));
    bob = await addUser('+12065550102', null, new Date(now.getTime() - 2 * DAY));
    // A Baltimore ZIP: the region comes from it, not from the Pacific Northwest table.
    const tess = await addUser('+15005550103', '21201', new Date(now.getTime() - 2 * DAY), true);
    convA = await insertConversation(ds, alice);
    convB = await insertConversation(ds, bob);
    const convT = await insertConversation(ds, tess, true);
    const threeDaysAgo = new Date(now.getTime() - 3 * DAY);

    // Alice: a question 3 days ago with a detailed reply; one today with a slow reply.
    await addMessage('a1', alice, convA, threeDaysAgo, { direction: 'inbound' });
    await addMessage('a2', alice, convA, new Date(threeDaysAgo.getTime() + 2 * SECOND), {
      direction: 'outbound',
      chars: 300,
      responseMs: 2000,
    });
    await addMessage('a3', alice, convA, today(0.1), { direction: 'inbound' });
    await addMessage('a4', alice, convA, today(0.11), {
      direction: 'outbound',
      chars: 100,
      responseMs: 12_000,
    });
    // Bob: one question today, a short reply, and a survey link (not a reply).
    await addMessage('b1', bob, convB, today(0.2), { direction: 'inbound' });
    await addMessage('b2', bob, convB, today(0.21), { direction: 'outbound', chars: 50, responseMs: 1000 });
    await addMessage('b3', bob, convB, today(0.22), { direction: 'outbound', kind: 'survey', chars: 60 });
    // A test user's exchange: only in the test-data view.
    await addMessage('t1', tess, convT, today(0.3), { direction: 'inbound', test: true });
    await addMessage('t2', tess, convT, today(0.31), { direction: 'outbound', responseMs: 500, test: true });
    await ds.query(
      'UPDATE users u SET last_message_at = (SELECT max(created_at) FROM messages m WHERE m.user_id = u.id)',
    );

    // Model calls: a timed-out primary then the fallback model (conversation A), a template answer
    // with no failure before it (B: the spending limit), primary answers, a summary, older calls.
    const t1 = today(0.2);
    await addCall(t1, {
      conversationId: convA,
      model: 'gpt-4o-mini',
      tier: 'primary',
      error: 'timeout: Request timed out',
      latencyMs: 300,
    });
    await addCall(new Date(t1.getTime() + SECOND), {
      conversationId: convA,
      model: 'gpt-4o',
      tier: 'fallback',
      cost: 0.01,
      tokens: 700,
      latencyMs: 2500,
    });
    await addCall(today(0.4), { conversationId: convB, model: null, tier: 'template', latencyMs: 0 });
    await addCall(today(0.5), {
      conversationId: convA,
      purpose: 'summary',
      model: 'gpt-4o-mini',
      tier: 'primary',
      cost: 0.003,
      tokens: 900,
      latencyMs: 1500,
    });
    await addCall(today(0.6), {
      conversationId: convA,
      model: 'gpt-4o-mini',
      tier: 'primary',
      cost: 0.002,
      tokens: 500,
      latencyMs: 1200,
    });
    await addCall(today(0.7), {
      conversationId: convT,
      model: 'gpt-4o-mini',
      tier: 'primary',
      cost: 0.001,
      tokens: 100,
      latencyMs: 800,
      test: true,
    });
    await addCall(today(0.8), {
      conversationId: convB,
      model: 'offline-advisor',
      tier: 'primary',
      latencyMs: 5,
    });
    await addCall(threeDaysAgo, { conversationId: convA, model: null, tier: 'minimal' });
    await addCall(new Date(now.getTime() - 30 * HOUR), {
      conversationId: convA,
      model: 'gpt-4o-mini',
      tier: 'primary',
      cost: 5,
      latencyMs: 1000,
    });
  });

  it("GET /api/admin/metrics: the four cards from real users' data", async () => {
    expect(await get('/api/admin/metrics')).toEqual({
      status: 200,
      // Today: alice 2 and bob 3 messages; replies took 12 s and 1 s; real calls cost 0.01 + 0.003 + 0.002.
      body: { activeUsers: 2, messagesToday: 5, avgResponseTime: 6500, todaysCost: 0.015 },
    });
  });

  it('GET /api/admin/messages: newest first with phone, ZIP and region, bounded, test data on request', async () => {
    // A region recorded on the user (one they named) is theirs whatever their number says.
    await ds.query(`UPDATE users SET region = 'Northeast' WHERE id = $1`, [bob]);
    const all = await get<MonitoringMessage[]>('/api/admin/messages');
    expect(all.status).toBe(200);
    expect(all.body.map((m) => m.id)).toEqual(['b3', 'b2', 'b1', 'a4', 'a3', 'a2', 'a1'].map((k) => ids[k]));
    expect(all.body[0]).toEqual({
      id: ids.b3,
      content: expect.stringMatching(/^b3 x+$/),
      direction: 'outbound',
      status: 'delivered',
      createdAt: today(0.22).toISOString(),
      isTestUser: false,
      user: { id: bob, phoneNumber: '+12065550102', zipCode: null, region: 'Northeast' },
    });
    expect(all.body[3]?.user).toEqual({
      id: alice,
      phoneNumber: '+15035550101',
      zipCode: '97201',
      region: 'Pacific Northwest',
    });

    const two = await get<MonitoringMessage[]>('/api/admin/messages?limit=2');
    expect(two.body.map((m) => m.id)).toEqual([ids.b3, ids.b2]);
    const test = await get<MonitoringMessage[]>('/api/admin/messages?showTestData=true');
    expect(test.body.map((m) => m.id)).toEqual([ids.t2, ids.t1]);
    expect(test.body[0]?.user).toMatchObject({ zipCode: '21201', region: 'Mid-Atlantic' });
    await ds.query(`UPDATE users SET region = NULL WHERE id = $1`, [bob]);
    expect((await get<MonitoringMessage[]>('/api/admin/messages?limit=1')).body[0]?.user.region).toBeNull();
    expect((await get('/api/admin/messages?limit=500')).status).toBe(400);
  });

  it('GET /api/monitoring/api-usage: today’s provider calls with their latencies and alerts', async () => {
    const { status, body } = await get<ApiUsage>('/api/monitoring/api-usage');
    expect(status).toBe(200);
    // Today's model calls but the offline advisor's: the failed primary, the fallback, the
    // summary, the primary answer and the test user's (30 hours ago is yesterday).
    expect(body).toEqual({
      calls: 5,
      cost: 0.016,
      tokens: 2200,
      errors: 1,
      averageResponseTime: 1260,
      responseTimes: [300, 2500, 1500, 1200, 800],
      date: now.toISOString().slice(0, 10),
      alerts: [{ level: 'high', type: 'errors', message: '1 of 5 API calls failed today (20.0%)' }],
    });
  });

  it('raises usage alerts against the display limits of 1000 calls and $10', () => {
    expect(usageAlerts({ calls: 850, cost: 6.5, errors: 0, averageResponseTime: 6000 })).toEqual([
      { level: 'high', type: 'usage', message: '850 API calls today, 85% of the 1,000 daily limit' },
      { level: 'medium', type: 'cost', message: 'API cost today is $6.5000, 65% of the $10.00 daily limit' },
      { level: 'medium', type: 'performance', message: 'API calls take 6.0 s on average today' },
    ]);
    expect(usageAlerts({ calls: 600, cost: 6, errors: 3, averageResponseTime: 900 })).toEqual([]);
    expect(usageAlerts({ calls: 4, cost: 0, errors: 4, averageResponseTime: 0 })).toEqual([]);
  });

  it('GET /api/monitoring/conversation-quality: the week of real conversations and its score', async () => {
    const { status, body } = await get<ConversationQuality>('/api/monitoring/conversation-quality');
    expect(status).toBe(200);
    expect(body.weeklyMetrics).toEqual({
      total_users: 2,
      returning_users: 1,
      active_users: 1,
      total_messages: 7,
      substantive_responses: 2,
      detailed_responses: 1,
      avg_messages_per_user: 3.5,
      avg_response_time: 5000,
      avg_response_length: 150,
      active_days: 2,
      slow_responses: 1,
      total_responses: 3,
    });
    // 35·2/3 + 25·2/3 + 10·1/3 + 10·1/2 + 5·3.5/4 + 15·2/7 = 56.99
    expect(body.healthScore).toBe(57);
  });

  it('GET /api/monitoring/fallback: replies per tier, the current tier and why replies fell back', async () => {
    const { status, body } = await get<FallbackReport>('/api/monitoring/fallback');
    expect(status).toBe(200);
    expect(body.chain.map((t) => [t.tier, t.last24Hours, t.last7Days])).toEqual([
      ['primary', 3, 4],
      ['fallback', 1, 1],
      ['template', 1, 1],
      ['minimal', 0, 1],
    ]);
    expect(body.current).toEqual({ tier: 'primary', at: today(0.8).toISOString() });
    expect(body.fallbackRate24Hours).toBe(40);
    expect(body.recentFallbacks).toEqual([
      {
        at: today(0.4).toISOString(),
        tier: 'template',
        reason: 'No model was called: the daily spending limit was reached',
        failedModel: null,
        conversationId: convB,
      },
      {
        at: new Date(today(0.2).getTime() + SECOND).toISOString(),
        tier: 'fallback',
        reason: 'timeout: Request timed out',
        failedModel: 'gpt-4o-mini',
        conversationId: convA,
      },
      {
        at: new Date(now.getTime() - 3 * DAY).toISOString(),
        tier: 'minimal',
        reason: 'The offline advisor had no answer',
        failedModel: null,
        conversationId: convA,
      },
    ]);
  });

  describe('health from the monitor', () => {
    const checkedAt = () => new Date().toISOString();
    const service = (fields: Partial<StoredServiceCheck>): StoredServiceCheck => ({
      available: true,
      lastCheck: checkedAt(),
      consecutiveFailures: 0,
      lastError: null,
      latencyMs: 12,
      detail: null,
      ...fields,
    });
    const queue = (fields: Partial<StoredQueueCheck>): StoredQueueCheck => ({
      available: true,
      lastCheck: checkedAt(),
      consecutiveFailures: 0,
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 0,
      workers: 1,
      oldestWaitingSeconds: null,
      problem: null,
      ...fields,
    });

    beforeAll(async () => {
      // A stand-in monitor: records a round as services/monitor does and answers the job result.
      workers.push(
        await startWorkers({
          connection: gw.redis.connection,
          prefix: gw.redis.prefix,
          owns: ['monitor.health', 'monitor.predict'],
          logger: silent,
          handlers: {
            'monitor.health': async (): Promise<JobResult<'monitor.health'>> => {
              const timestamp = checkedAt();
              const services = {
                database: service({ detail: 'postgres' }),
                redis: service({ detail: 'redis' }),
                ai_provider: service({ consecutiveFailures: 2, lastError: 'OpenAI answered 500' }),
                sms_provider: service({ available: false, consecutiveFailures: 3, lastError: 'Twilio 503' }),
              };
              const k = keys();
              await gw.redis.connection
                .multi()
                .hset(
                  k.services,
                  Object.fromEntries(Object.entries(services).map(([n, s]) => [n, JSON.stringify(s)])),
                )
                .hset(k.queues, 'sms.inbound', JSON.stringify(queue({ waiting: 3, oldestWaitingSeconds: 2 })))
                .set(k.overall, JSON.stringify({ overallHealth: 'degraded', timestamp }))
                .set(k.tier, JSON.stringify({ tier: 'fallback', at: timestamp }))
                .exec();
              return { overallHealth: 'degraded', timestamp, services };
            },
            'monitor.predict': async (): Promise<JobResult<'monitor.predict'>> => {
              const timestamp = checkedAt();
              const point = (value: number) => ({ timestamp, value });
              const state: JobResult<'monitor.predict'> = {
                trends: {
                  trends: {
                    responseTimeHistory: [point(1.5), point(12)],
                    errorRateHistory: [point(0), point(50)],
                  },
                  timestamp,
                },
                predictions: {
                  predictions: [
                    {
                      type: 'error_rate_increase',
                      severity: 'high',
                      confidence: 'medium',
                      timeframe: 'next 15 minutes',
                      currentRate: 50,
                      percentageChange: 100,
                      recommendedActions: ['Open Service Health and check the AI provider and SMS provider'],
                    },
                  ],
                  timestamp,
                },
                system: {
                  status: 'critical',
                  timestamp,
                  activePredictions: 1,
                  metrics: {
                    resourceUtilization: { heapUsed: 61.2, heapTotal: 80, rss: 150.5, external: 3.1 },
                    averageResponseTime: 4200,
                    errorRate: 12.5,
                    queueDepth: 3,
                  },
                },
              };
              const k = keys();
              await gw.redis.connection
                .multi()
                .set(k.trends, JSON.stringify(state.trends), 'EX', PROACTIVE_STATE_TTL_SECONDS)
                .set(k.predictions, JSON.stringify(state.predictions), 'EX', PROACTIVE_STATE_TTL_SECONDS)
                .set(k.system, JSON.stringify(state.system), 'EX', PROACTIVE_STATE_TTL_SECONDS)
                .exec();
              return state;
            },
          },
        }),
      );
    });

    it('POST /api/monitoring/force-health-check runs the checks now and answers the fresh result', async () => {
      const { status, body } = await send<ForceHealthCheckResponse>(
        'POST',
        '/api/monitoring/force-health-check',
      );
      expect(status).toBe(200);
      expect(body.success).toBe(true);
      expect(body.health.overallHealth).toBe('degraded');
      expect(body.health.stale).toBe(false);
      expect(body.health.services.ai_provider).toMatchObject({
        label: 'AI Provider',
        available: true,
        consecutiveFailures: 2,
        threshold: FAILURE_THRESHOLDS.ai_provider,
        lastError: 'OpenAI answered 500',
      });
      expect(body.health.services.sms_provider).toMatchObject({ available: false, consecutiveFailures: 3 });
      expect(body.health.fallback.current.tier).toBe('fallback');
    });

    it('GET /api/monitoring/service-health reads the recorded round', async () => {
      const { status, body } = await get<ServiceHealthReport>('/api/monitoring/service-health');
      expect(status).toBe(200);
      expect(body.overallHealth).toBe('degraded');
      expect(body.stale).toBe(false);
      expect(body.lastRoundAt).toBe(body.timestamp);
      expect(Date.now() - Date.parse(body.services.database?.lastCheck ?? '')).toBeLessThan(60_000);
      expect(body.services.database).toMatchObject({
        available: true,
        detail: 'postgres',
        threshold: 5,
        checkedBy: 'monitor',
      });
      expect(body.monitorStateError).toBeNull();
      expect(body.queues.find((q) => q.queue === 'sms.inbound')).toMatchObject({
        available: true,
        waiting: 3,
        threshold: 3,
      });
      // Queues this round did not cover stay "not checked".
      expect(body.queues.find((q) => q.queue === 'image.analyze')?.lastCheck).toBeNull();
    });

    it('POST /api/monitoring/proactive/force-check and the three proactive reads', async () => {
      const forced = await send<{ success: boolean; predictions: unknown[] }>(
        'POST',
        '/api/monitoring/proactive/force-check',
      );
      expect(forced.status).toBe(200);
      expect(forced.body.success).toBe(true);
      expect(forced.body.predictions).toEqual([expect.objectContaining({ type: 'error_rate_increase' })]);

      const system = await get<{ status: string; metrics: { resourceUtilization: unknown } }>(
        '/api/monitoring/proactive/system-health',
      );
      expect(system.status).toBe(200);
      expect(system.body.status).toBe('critical');
      expect(system.body.metrics.resourceUtilization).toEqual({
        heapUsed: 61.2,
        heapTotal: 80,
        rss: 150.5,
        external: 3.1,
      });
      const predictions = await get<{ predictions: Array<{ severity: string }> }>(
        '/api/monitoring/proactive/predictions',
      );
      expect(predictions.body.predictions.map((p) => p.severity)).toEqual(['high']);
      const trends = await get<{ trends: { responseTimeHistory: Array<{ value: number }> } }>(
        '/api/monitoring/proactive/trends',
      );
      expect(trends.body.trends.responseTimeHistory.map((p) => p.value)).toEqual([1.5, 12]);
    });
  });

  describe('the queues panel', () => {
    let failNext = true;
    let logged: Array<{ fields: Record<string, unknown>; message: string }>;

    beforeAll(async () => {
      const logger = app.get<Logger>(LOGGER);
      logged = [];
      jest.spyOn(logger, 'info').mockImplementation((fields: unknown, message: unknown) => {
        if (typeof message === 'string' && message.startsWith('Admin '))
          logged.push({ fields: fields as Record<string, unknown>, message });
      });
      // A stand-in survey-scheduler whose run fails once for good, then succeeds.
      workers.push(
        await startWorkers({
          connection: gw.redis.connection,
          prefix: gw.redis.prefix,
          owns: ['survey.lifecycle'],
          logger: silent,
          handlers: {
            'survey.lifecycle': async () => {
              if (failNext) {
                failNext = false;
                throw new UnrecoverableError('campaign table locked');
              }
              return { campaigns: 0, transitions: [], newlyTargeted: 0 };
            },
          },
        }),
      );
    });

    const queues = () => app.get(JobQueues);
    const waitForState = async (jobId: string, state: string): Promise<void> => {
      for (let i = 0; i < 100; i += 1) {
        const job = await queues().queue('survey.lifecycle').getJob(jobId);
        if ((await job?.getState()) === state) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`job ${jobId} never reached ${state}`);
    };

    it('lists a failed job with its reason and attempts, retries it (logged) and it completes', async () => {
      const { jobId } = await queues().enqueue('survey.lifecycle', {});
      await waitForState(jobId, 'failed');

      const listed = await get<QueuesResponse>('/api/monitoring/queues');
      const survey = listed.body.queues.find((q) => q.queue === 'survey.lifecycle');
      expect(survey).toMatchObject({ failed: 1, workers: 1 });
      expect(survey?.failedJobs).toEqual([
        {
          id: jobId,
          data: {},
          failedReason: 'campaign table locked',
          attemptsMade: 1,
          maxAttempts: 3,
          enqueuedAt: expect.any(String),
          failedAt: expect.any(String),
        },
      ]);

      const retried = await send<QueueJobActionResponse>(
        'POST',
        `/api/monitoring/queues/survey.lifecycle/jobs/${encodeURIComponent(jobId)}/retry`,
      );
      expect(retried).toEqual({
        status: 200,
        body: { success: true, action: 'retry', queue: 'survey.lifecycle', jobId },
      });
      await waitForState(jobId, 'completed');
      expect(logged).toEqual([
        {
          message: 'Admin retried a failed job',
          fields: expect.objectContaining({
            admin: 'admin',
            action: 'retry',
            queue: 'survey.lifecycle',
            jobId,
          }),
        },
      ]);
      const after = await get<QueuesResponse>('/api/monitoring/queues');
      expect(after.body.queues.find((q) => q.queue === 'survey.lifecycle')).toMatchObject({
        failed: 0,
        completed: 1,
        failedJobs: [],
      });

      // A job that has not failed cannot be retried or removed.
      const again = await send<{ message: string }>(
        'POST',
        `/api/monitoring/queues/survey.lifecycle/jobs/${encodeURIComponent(jobId)}/retry`,
      );
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(JOB_NOT_FAILED);
    });

    it('removes a failed job (logged), and answers 404 for unknown queues and jobs', async () => {
      failNext = true;
      const { jobId } = await queues().enqueue('survey.lifecycle', {
        campaignId: '00000000-0000-4000-8000-000000000001',
      });
      await waitForState(jobId, 'failed');
      const removed = await send<QueueJobActionResponse>(
        'DELETE',
        `/api/monitoring/queues/survey.lifecycle/jobs/${encodeURIComponent(jobId)}`,
      );
      expect(removed.body).toEqual({ success: true, action: 'remove', queue: 'survey.lifecycle', jobId });
      expect(await queues().queue('survey.lifecycle').getJob(jobId)).toBeUndefined();
      expect(logged.at(-1)).toEqual({
        message: 'Admin removed a failed job',
        fields: expect.objectContaining({ admin: 'admin', action: 'remove', jobId }),
      });

      const noQueue = await send<{ message: string }>('POST', '/api/monitoring/queues/nope/jobs/1/retry');
      expect(noQueue).toEqual({ status: 404, body: expect.objectContaining({ message: QUEUE_NOT_FOUND }) });
      const noJob = await send<{ message: string }>('DELETE', '/api/monitoring/queues/sms.inbound/jobs/404');
      expect(noJob).toEqual({ status: 404, body: expect.objectContaining({ message: JOB_NOT_FOUND }) });
    });
  });

  it('refuses every monitoring endpoint without a session', async () => {
    for (const url of [
      '/api/admin/metrics',
      '/api/admin/messages',
      '/api/monitoring/api-usage',
      '/api/monitoring/service-health',
      '/api/monitoring/queues',
    ]) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    expect((await app.inject({ method: 'POST', url: '/api/monitoring/force-health-check' })).statusCode).toBe(
      401,
    );
  });
});
