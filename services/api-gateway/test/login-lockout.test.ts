import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CONFIG } from '@sprout/platform';
import { TcpRelay } from '@sprout/testing';
import type { ApiGatewayConfig } from '../src/app';
import {
  LOGIN_SLOWDOWN_MAX_MS,
  LoginThrottleService,
  TOO_MANY_LOGINS,
} from '../src/auth/login-throttle.service';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  startGateway,
  type TestGateway,
  expectStatusMessage,
} from './support/gateway';

// The tests stand in for the edge (TRUST_PROXY 127.0.0.1, support/gateway.ts): X-Forwarded-For
// names the client IP the edge saw. The gateway reaches Redis through a relay a test can cut.
let gw: TestGateway;
let app: NestFastifyApplication;
let redisRelay: TcpRelay;
let loginUrl: string;

beforeAll(async () => {
  const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  redisRelay = new TcpRelay({ host: redis.hostname, port: Number(redis.port || 6379) });
  await redisRelay.listen();
  redis.host = `127.0.0.1:${redisRelay.port}`;
  gw = await startGateway({ redisUrl: redis.toString() });
  app = gw.app;
  await app.listen(0, '127.0.0.1');
  loginUrl = `${await app.getUrl()}/api/admin/login`;
});

afterAll(async () => {
  // Redis back first, so the app closes its queues and connections normally.
  redisRelay?.restore();
  await gw?.close();
  await redisRelay?.close();
});

beforeEach(async () => {
  const keys = await gw.redis.connection.keys(`${gw.redis.prefix}:login-failures:*`);
  if (keys.length > 0) await gw.redis.connection.del(...keys);
});

const login = (username: string, password: string, ip: string) =>
  app.inject({
    method: 'POST',
    url: '/api/admin/login',
    headers: { 'x-forwarded-for': ip },
    payload: { username, password },
  });

describe('login throttle: nobody can lock someone else out', () => {
  it('5 wrong passwords from 5 IPs do not lock the admin: the right one from another IP works', async () => {
    for (let i = 1; i <= 5; i += 1) {
      expect((await login(ADMIN_USERNAME, 'wrong-password', `203.0.113.${i}`)).statusCode).toBe(401);
    }
    // Slowed down (see below), not refused.
    expect((await login(ADMIN_USERNAME, ADMIN_PASSWORD, '198.51.100.20')).statusCode).toBe(200);
  });

  it('blocks the account from the IP that failed 5 times, and only from there', async () => {
    const attacker = '203.0.113.50';
    for (let i = 0; i < 5; i += 1) {
      expect((await login(ADMIN_USERNAME, 'wrong-password', attacker)).statusCode).toBe(401);
    }
    const blocked = await login(ADMIN_USERNAME, ADMIN_PASSWORD, attacker);
    expectStatusMessage(blocked, 429, 'Too many failed login attempts. Please try again later.');
    expect((await login(ADMIN_USERNAME, ADMIN_PASSWORD, '198.51.100.21')).statusCode).toBe(200);
  });

  it('blocks an IP after 5 failures across accounts, not the accounts elsewhere', async () => {
    const guesser = '203.0.113.60';
    for (let i = 0; i < 5; i += 1) {
      expect((await login(`someone-${i}`, 'guess', guesser)).statusCode).toBe(401);
    }
    expect((await login(ADMIN_USERNAME, ADMIN_PASSWORD, guesser)).statusCode).toBe(429);
    expect((await login(ADMIN_USERNAME, ADMIN_PASSWORD, '198.51.100.22')).statusCode).toBe(200);
  });

  it('slows an account failing from many IPs down, up to a cap, and a success clears it', async () => {
    const throttle = app.get(LoginThrottleService);
    expect(throttle.slowdownMs(4)).toBe(0);
    expect(throttle.slowdownMs(5)).toBe(250);
    expect(throttle.slowdownMs(8)).toBe(1_000);
    expect(throttle.slowdownMs(500)).toBe(LOGIN_SLOWDOWN_MAX_MS);

    for (let i = 1; i <= 7; i += 1) {
      expect((await login(ADMIN_USERNAME, 'wrong-password', `192.0.2.${i}`)).statusCode).toBe(401);
    }
    // Timed on the throttle alone: password hashing on a loaded machine would swamp the wait.
    let startedAt = Date.now();
    await throttle.admit(ADMIN_USERNAME, '198.51.100.23');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(740);
    expect((await login(ADMIN_USERNAME, ADMIN_PASSWORD, '198.51.100.23')).statusCode).toBe(200);
    const accountKeys = await gw.redis.connection.keys(`${gw.redis.prefix}:login-failures:account:*`);
    expect(accountKeys).toEqual([]);
    startedAt = Date.now();
    await throttle.admit(ADMIN_USERNAME, '198.51.100.23');
    expect(Date.now() - startedAt).toBeLessThan(500);
  });
});

describe('login throttle: a burst is counted before any password is checked', () => {
  /**
   * 20 logins from one IP sent at once over HTTP, 19 wrong and the right one last; answers each
   * response's status and body, in the order sent.
   */
  const burst = async (ip: string) => {
    const passwords = [...Array.from({ length: 19 }, (_, i) => `wrong-password-${i}`), ADMIN_PASSWORD];
    const responses = await Promise.all(
      passwords.map((password) =>
        fetch(loginUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
          body: JSON.stringify({ username: ADMIN_USERNAME, password }),
        }),
      ),
    );
    return Promise.all(responses.map(async (r) => ({ status: r.status, body: await r.json() })));
  };

  const expectHeldToTheLimit = (answers: Awaited<ReturnType<typeof burst>>): void => {
    const limit = app.get<ApiGatewayConfig>(CONFIG).loginMaxFailures;
    const checked = answers.filter((a) => a.status === 401 || a.status === 200);
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(limit);
    const refused = answers.filter((a) => a.status !== 401 && a.status !== 200);
    expect(refused).toHaveLength(answers.length - checked.length);
    for (const answer of refused) {
      expect(answer).toEqual({
        status: 429,
        body: { statusCode: 429, error: 'Too Many Requests', message: TOO_MANY_LOGINS },
      });
    }
  };

  it('checks at most LOGIN_MAX_FAILURES of 20 parallel attempts from one IP (Redis)', async () => {
    const ip = '203.0.113.80';
    const answers = await burst(ip);
    expectHeldToTheLimit(answers);
    // Every checked wrong password stays counted against the IP, nothing more.
    const failures = answers.filter((a) => a.status === 401).length;
    expect(Number(await gw.redis.connection.get(`${gw.redis.prefix}:login-failures:ip:${ip}`))).toBe(
      failures,
    );
  });

  it('holds a burst to the limit while Redis is down too (the in-process count)', async () => {
    const ip = '203.0.113.81';
    redisRelay.cut();
    try {
      expectHeldToTheLimit(await burst(ip));
    } finally {
      redisRelay.restore();
    }
    // Counted in this process, not in Redis.
    expect(await gw.redis.connection.get(`${gw.redis.prefix}:login-failures:ip:${ip}`)).toBeNull();
  });
});
