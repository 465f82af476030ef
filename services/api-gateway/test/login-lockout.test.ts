import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LOGIN_SLOWDOWN_MAX_MS, LoginThrottleService } from '../src/auth/login-throttle.service';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startGateway, type TestGateway } from './support/gateway';

// The tests stand in for the edge (TRUST_PROXY 127.0.0.1, support/gateway.ts): X-Forwarded-For
// names the client IP the edge saw.
let gw: TestGateway;
let app: NestFastifyApplication;

beforeAll(async () => {
  gw = await startGateway();
  app = gw.app;
});

afterAll(async () => {
  await gw?.close();
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
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe('Too many failed login attempts. Please try again later.');
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
    await throttle.assertAllowed(ADMIN_USERNAME, '198.51.100.23');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(740);
    expect((await login(ADMIN_USERNAME, ADMIN_PASSWORD, '198.51.100.23')).statusCode).toBe(200);
    const accountKeys = await gw.redis.connection.keys(`${gw.redis.prefix}:login-failures:account:*`);
    expect(accountKeys).toEqual([]);
    startedAt = Date.now();
    await throttle.assertAllowed(ADMIN_USERNAME, '198.51.100.23');
    expect(Date.now() - startedAt).toBeLessThan(500);
  });
});
