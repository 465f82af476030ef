// Redis stops under a running gateway: the System Health report still answers (Redis unavailable
// as the gateway saw it, the database checked by the gateway itself, the rest not checked), an
// admin already signed in stays signed in, and signing in still works. The gateway gets a Redis
// of its own here (a redis-server on a free loopback port), reached through a relay the test cuts:
// the relay keeps its port while Redis is "down", so no other test can take the port meanwhile.
import { type ChildProcess, spawn } from 'node:child_process';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ServiceHealthReport, monitorStateKeys } from '@sprout/contracts';
import { findFreePort } from '@sprout/platform';
import { createTestDatabase, TcpRelay, type TestDatabase } from '@sprout/testing';
import { Redis } from 'ioredis';
import { createApp } from '../src/app';
import { TOO_MANY_LOGINS } from '../src/auth/login-throttle.service';
import {
  NOT_CHECKED_WITHOUT_REDIS,
  QUEUE_UNKNOWN_WITHOUT_REDIS,
  REDIS_UNREACHABLE,
  STATE_READ_TIMEOUT_MS,
  STATE_UNREADABLE,
} from '../src/monitoring/monitor-state.reader';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  login,
  sessionCookieFrom,
  expectStatusMessage,
} from './support/gateway';

const PREFIX = 'sprout-no-redis';

let db: TestDatabase;
let port: number;
let redisServer: ChildProcess | undefined;
let relay: TcpRelay;
let app: NestFastifyApplication;

/** Starts redis-server on `port` (nothing kept on disk) and waits until it answers. */
const startRedis = async (): Promise<void> => {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
  });
  redisServer = child;
  const probe = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    commandTimeout: 1_000,
  });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await probe.connect();
        await probe.ping();
        return;
      } catch (error) {
        if (attempt > 100) throw error;
        probe.disconnect();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    probe.disconnect();
  }
};

const stopRedis = async (): Promise<void> => {
  const child = redisServer;
  redisServer = undefined;
  if (child === undefined || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
};

const serviceHealth = async (cookie: string) => {
  const startedAt = Date.now();
  const response = await app.inject({
    method: 'GET',
    url: '/api/monitoring/service-health',
    headers: { cookie },
  });
  return {
    status: response.statusCode,
    body: response.json<ServiceHealthReport>(),
    ms: Date.now() - startedAt,
  };
};

const postLogin = (password: string) =>
  app.inject({
    method: 'POST',
    url: '/api/admin/login',
    payload: { username: ADMIN_USERNAME, password },
  });

beforeAll(async () => {
  port = await findFreePort();
  await startRedis();
  relay = new TcpRelay({ host: '127.0.0.1', port });
  await relay.listen();
  db = await createTestDatabase();
  app = await createApp({
    databaseUrl: db.url,
    redisUrl: `redis://127.0.0.1:${relay.port}`,
    bullmqPrefix: PREFIX,
    logLevel: 'silent',
    adminUsername: ADMIN_USERNAME,
    adminPassword: ADMIN_PASSWORD,
  });
});

afterAll(async () => {
  // Redis back first, so the app closes its queues and connections normally.
  relay?.restore();
  await app?.close();
  await relay?.close();
  await stopRedis();
  await db?.drop();
});

it('keeps the System Health report, the session and signing in while Redis is down', async () => {
  const cookie = await login(app);
  const before = await serviceHealth(cookie);
  expect(before.status).toBe(200);
  expect(before.body.monitorStateError).toBeNull();
  expect(before.body.smsSending?.state).toBe('closed');

  relay.cut();

  // The admin signed in before the outage is still signed in; the report answers 200 at once.
  const during = await serviceHealth(cookie);
  expect(during.status).toBe(200);
  expect(during.ms).toBeLessThan(STATE_READ_TIMEOUT_MS + 2_000);
  const { body } = during;
  expect(body.overallHealth).toBe('degraded');
  expect(body.monitorStateError).toContain(STATE_UNREADABLE);
  // The Twilio send circuit is kept in Redis too: not known.
  expect(body.smsSending).toBeNull();
  expect(body.services.redis).toMatchObject({
    label: 'Redis',
    available: false,
    checkedBy: 'api-gateway',
    consecutiveFailures: 1,
    threshold: 5,
  });
  expect(body.services.redis?.lastError).toMatch(/^The api-gateway could not read from Redis: /);
  expect(Date.now() - Date.parse(body.services.redis?.lastCheck ?? '')).toBeLessThan(10_000);
  expect(body.services.database).toMatchObject({
    available: true,
    checkedBy: 'api-gateway',
    consecutiveFailures: 0,
    lastError: null,
  });
  for (const name of ['ai_provider', 'sms_provider']) {
    expect(body.services[name]).toMatchObject({
      available: false,
      checkedBy: null,
      lastCheck: null,
      detail: NOT_CHECKED_WITHOUT_REDIS,
    });
  }
  expect(body.queues.every((q) => q.lastCheck === null && q.problem === QUEUE_UNKNOWN_WITHOUT_REDIS)).toBe(
    true,
  );
  expect(body.fallback.current).toEqual({ tier: null, at: null });

  // What lives only in Redis answers 503 at once, with why, instead of waiting for Redis.
  const onlyInRedis: Array<[method: 'GET' | 'POST', url: string, message: string]> = [
    ['GET', '/api/monitoring/queues', REDIS_UNREACHABLE],
    ['POST', '/api/monitoring/force-health-check', REDIS_UNREACHABLE],
    ['GET', '/api/monitoring/proactive/system-health', STATE_UNREADABLE],
  ];
  for (const [method, url, message] of onlyInRedis) {
    const response = await app.inject({ method, url, headers: { cookie } });
    expect([url, response.statusCode, response.json<{ message: string }>().message]).toEqual([
      url,
      503,
      message,
    ]);
  }

  // The gateway counts its own failed reads while Redis stays down.
  const again = await serviceHealth(cookie);
  expect(again.body.services.redis?.consecutiveFailures).toBe(2);

  // Signing in still works (the throttle counts in this process meanwhile) and the new session works.
  const signedIn = await postLogin(ADMIN_PASSWORD);
  expect(signedIn.statusCode).toBe(200);
  const second = sessionCookieFrom(signedIn.headers['set-cookie']);
  expect(second).toBeDefined();
  expect((await serviceHealth(second ?? '')).status).toBe(200);

  // ... and so does the throttle: 5 failures block the 6th attempt, even with the right password.
  for (let i = 0; i < 5; i++) expect((await postLogin('wrong password')).statusCode).toBe(401);
  const blocked = await postLogin(ADMIN_PASSWORD);
  expectStatusMessage(blocked, 429, TOO_MANY_LOGINS);

  // Logging out ends the session even without Redis.
  const out = await app.inject({
    method: 'POST',
    url: '/api/admin/logout',
    headers: { cookie: second ?? '' },
  });
  expect(out.statusCode).toBe(200);
  expect((await serviceHealth(second ?? '')).status).toBe(401);

  // Redis back: the report is the monitor's state again.
  relay.restore();
  const redis = new Redis({ host: '127.0.0.1', port });
  try {
    await redis.set(
      monitorStateKeys(PREFIX).overall,
      JSON.stringify({ overallHealth: 'healthy', timestamp: new Date().toISOString() }),
    );
  } finally {
    redis.disconnect();
  }
  let after = await serviceHealth(cookie);
  for (
    const deadline = Date.now() + 30_000;
    after.body.monitorStateError !== null && Date.now() < deadline;
  ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = await serviceHealth(cookie);
  }
  expect(after.status).toBe(200);
  expect(after.body.monitorStateError).toBeNull();
  expect(after.body.overallHealth).toBe('healthy');
  // Signing in hashes with argon2 several times: minutes on a loaded machine, not seconds.
}, 180_000);
