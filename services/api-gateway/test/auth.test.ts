import { useClosable } from '@sprout/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AdminUser } from '@sprout/domain';
import { LOGGER } from '@sprout/platform';
import * as argon2 from 'argon2';
import type { Logger } from 'pino';
import { AdminUsersService } from '../src/auth/admin-users.service';
import { sessionTokenHash } from '../src/auth/session.service';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  login,
  sessionCookieFrom,
  startGateway,
  expectStatusMessage,
  clientIps,
} from './support/gateway';

const gw = useClosable(() => startGateway());

const nextIp = clientIps(0);

const postLogin = (payload: unknown, headers: Record<string, string> = {}) =>
  gw.app.inject({
    method: 'POST',
    url: '/api/admin/login',
    headers: {
      'x-forwarded-for': nextIp(),
      ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    payload: payload as string | object,
  });

const authStatus = (cookie?: string) =>
  gw.app.inject({
    method: 'GET',
    url: '/api/admin/auth-status',
    headers: cookie === undefined ? {} : { cookie },
  });

/** Every stored session (admin_sessions holds only hashes of the cookie's ids). */
const sessionRows = async (): Promise<Array<{ token_hash: string }>> =>
  gw.db.dataSource.query(`SELECT "token_hash" FROM "admin_sessions"`);
/** The session id inside a "sprout_session=<id>.<signature>" cookie pair, and its stored hash. */
const idOf = (cookie: string): string => cookie.split('=')[1]?.split('.')[0] ?? '';
const hashOf = (cookie: string): string => sessionTokenHash(idOf(cookie));
const sessionRow = async (
  cookie: string,
): Promise<{ last_seen_at: Date; idle_expires_at: Date; expires_at: Date } | undefined> => {
  const rows: Array<{ last_seen_at: Date; idle_expires_at: Date; expires_at: Date }> =
    await gw.db.dataSource.query(
      `SELECT "last_seen_at", "idle_expires_at", "expires_at" FROM "admin_sessions" WHERE "token_hash" = $1`,
      [hashOf(cookie)],
    );
  return rows[0];
};

describe('the first admin', () => {
  it('is stored with an argon2id hash, never the password', async () => {
    const admin = await gw.db.dataSource
      .getRepository(AdminUser)
      .findOneByOrFail({ username: ADMIN_USERNAME });
    expect(admin.passwordHash.startsWith('$argon2id$')).toBe(true);
    expect(admin.passwordHash).not.toContain(ADMIN_PASSWORD);
  });

  it('gets a generated password, logged once, when ADMIN_PASSWORD is unset', async () => {
    const other = await gw.startAnother({ adminUsername: 'owner', adminPassword: undefined });
    const service = other.get(AdminUsersService);
    const logger = other.get<Logger>(LOGGER);
    const warn = jest.spyOn(logger, 'warn');
    try {
      // The first boot created it already; a second start must not generate another one.
      await service.ensureFirstAdmin();
      expect(warn).not.toHaveBeenCalled();

      await gw.db.dataSource.query('DELETE FROM admin_users WHERE username = $1', ['owner']);
      await service.ensureFirstAdmin();
      expect(warn).toHaveBeenCalledTimes(1);
      const [fields, line] = warn.mock.calls[0] as unknown as [{ generatedAdminPassword: string }, string];
      expect(line).toContain(fields.generatedAdminPassword);
      expect(line).toContain('ADMIN_PASSWORD');
      await login(gw.app, { username: 'owner', password: fields.generatedAdminPassword });

      await service.ensureFirstAdmin();
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });

  it('takes a changed ADMIN_PASSWORD on the next start', async () => {
    await gw.startAnother({ adminUsername: 'rotating', adminPassword: 'first-password-1' });
    await login(gw.app, { username: 'rotating', password: 'first-password-1' });
    await gw.startAnother({ adminUsername: 'rotating', adminPassword: 'second-password-2' });
    await login(gw.app, { username: 'rotating', password: 'second-password-2' });
    const res = await postLogin({ username: 'rotating', password: 'first-password-1' });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/admin/login', () => {
  it('signs in and sets a hardened session cookie', async () => {
    const res = await postLogin({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, user: { id: expect.any(String), username: ADMIN_USERNAME } });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^sprout_session=[^;]+;/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure');
    const status = await authStatus(sessionCookieFrom(res.headers['set-cookie']));
    expect(status.json()).toEqual({
      authenticated: true,
      user: { id: expect.any(String), username: ADMIN_USERNAME },
    });
  });

  it('marks the cookie Secure by configuration (COOKIE_SECURE), never because of X-Forwarded-Proto', async () => {
    const claimed = await postLogin(
      { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      { 'x-forwarded-proto': 'https' },
    );
    expect(claimed.statusCode).toBe(200);
    expect(String(claimed.headers['set-cookie'])).not.toContain('Secure');
    const secure = await gw.startAnother({ cookieSecure: true });
    const res = await secure.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { 'x-forwarded-for': nextIp() },
      payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toContain('Secure');
  });

  it('refuses a wrong password or an unknown user with the same generic answer', async () => {
    const wrong = await postLogin({ username: ADMIN_USERNAME, password: 'not-the-password' });
    const unknown = await postLogin({ username: 'nobody', password: 'whatever-it-is' });
    for (const res of [wrong, unknown]) {
      expectStatusMessage(res, 401, 'Invalid credentials');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it.each([
    [{}],
    [{ username: ADMIN_USERNAME }],
    [{ password: ADMIN_PASSWORD }],
    [{ username: '   ', password: ADMIN_PASSWORD }],
    [{ username: ADMIN_USERNAME, password: '' }],
    [{ username: 42, password: ['x'] }],
  ])('asks for both fields (%j)', async (payload) => {
    const res = await postLogin(payload);
    expectStatusMessage(res, 400, 'Please provide both username and password.');
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await postLogin('{"username": "admin", ');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/not valid JSON/);
  });

  it('gives each login a new session id and ends the one the browser had', async () => {
    const first = await login(gw.app);
    const res = await gw.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { cookie: first },
      payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    const second = sessionCookieFrom(res.headers['set-cookie']);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect((await authStatus(first)).json().authenticated).toBe(false);
    expect((await authStatus(second)).json().authenticated).toBe(true);
  });
});

describe('login throttling', () => {
  it('blocks an account after 5 failures from one IP, even with the right password, with a generic message', async () => {
    await gw.startAnother({ adminUsername: 'target', adminPassword: 'target-password' });
    const ip = '192.0.2.90';
    for (let i = 0; i < 5; i++) {
      expect(
        (await postLogin({ username: 'target', password: `guess-${i}` }, { 'x-forwarded-for': ip }))
          .statusCode,
      ).toBe(401);
    }
    const blocked = await postLogin(
      { username: 'TARGET', password: 'target-password' },
      { 'x-forwarded-for': ip },
    );
    expectStatusMessage(blocked, 429, 'Too many failed login attempts. Please try again later.');
    expect(blocked.headers['set-cookie']).toBeUndefined();
    // Other accounts are unaffected.
    expect((await postLogin({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD })).statusCode).toBe(200);
  });

  it('blocks a client IP after 5 failures across accounts', async () => {
    const ip = '192.0.2.77';
    for (let i = 0; i < 5; i++) {
      const res = await postLogin({ username: `someone-${i}`, password: 'guess' }, { 'x-forwarded-for': ip });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await postLogin(
      { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      { 'x-forwarded-for': ip },
    );
    expect(blocked.statusCode).toBe(429);
    const elsewhere = await postLogin({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('counts failures in a window that expires', async () => {
    await gw.startAnother({ adminUsername: 'patient', adminPassword: 'patient-password' });
    const ip = '198.51.100.9';
    for (let i = 0; i < 5; i++) {
      expect(
        (await postLogin({ username: 'patient', password: 'wrong' }, { 'x-forwarded-for': ip })).statusCode,
      ).toBe(401);
    }
    expect(
      (await postLogin({ username: 'patient', password: 'patient-password' }, { 'x-forwarded-for': ip }))
        .statusCode,
    ).toBe(429);
    const keys = await gw.redis.connection.keys(`${gw.redis.prefix}:login-failures:*`);
    const counted = keys.filter(
      (key) =>
        key.endsWith(':account:patient') ||
        key.endsWith(`:ip:${ip}`) ||
        key.endsWith(`:account-ip:patient:${ip}`),
    );
    expect(counted).toHaveLength(3);
    for (const key of counted) {
      const ttl = await gw.redis.connection.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(15 * 60 * 1000);
      // Let the window run out.
      await gw.redis.connection.pexpire(key, 1);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(
      (await postLogin({ username: 'patient', password: 'patient-password' }, { 'x-forwarded-for': ip }))
        .statusCode,
    ).toBe(200);
  });
});

describe('sessions', () => {
  it('ends with logout: the cookie is cleared and the session is gone from Postgres', async () => {
    const cookie = await login(gw.app);
    expect(await sessionRow(cookie)).toBeDefined();
    const before = await sessionRows();
    const res = await gw.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/sprout_session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await sessionRows()).length).toBe(before.length - 1);
    expect(await sessionRow(cookie)).toBeUndefined();
    expect((await authStatus(cookie)).json()).toEqual({ authenticated: false, user: null });
    const again = await gw.app.inject({ method: 'GET', url: '/api/dashboard/metrics', headers: { cookie } });
    expect(again.statusCode).toBe(401);
  });

  it('requires a session to log out', async () => {
    const res = await gw.app.inject({ method: 'POST', url: '/api/admin/logout' });
    expect(res.statusCode).toBe(401);
  });

  it('rejects a tampered or unsigned cookie', async () => {
    const cookie = await login(gw.app);
    const value = cookie.slice('sprout_session='.length);
    const tampered = `sprout_session=${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await authStatus(tampered)).json().authenticated).toBe(false);
    // The bare id, unsigned, is refused too; and the table stores no id, only its hash.
    expect((await authStatus(`sprout_session=${idOf(cookie)}`)).json().authenticated).toBe(false);
    const stored = (await sessionRows()).map((row) => row.token_hash);
    expect(stored).toContain(hashOf(cookie));
    expect(stored).not.toContain(idOf(cookie));
  });

  it('slides the idle timeout on an authenticated request', async () => {
    const cookie = await login(gw.app);
    const other = await login(gw.app);
    await gw.db.dataSource.query(
      `UPDATE "admin_sessions" SET "last_seen_at" = now() - interval '1 hour',
              "idle_expires_at" = now() + interval '5 seconds'`,
    );
    expect((await authStatus(cookie)).json().authenticated).toBe(true);
    // This session was extended back to about 8 hours; the other one was left alone.
    const hourFromNow = Date.now() + 60 * 60 * 1000;
    expect((await sessionRow(cookie))?.idle_expires_at.getTime()).toBeGreaterThan(hourFromNow);
    expect((await sessionRow(other))?.idle_expires_at.getTime()).toBeLessThan(hourFromNow);
  });

  it('does not write the slide again within a tenth of the idle timeout', async () => {
    const cookie = await login(gw.app);
    // Seen 10 minutes ago: less than a tenth of the 8 hour idle timeout.
    await gw.db.dataSource.query(
      `UPDATE "admin_sessions" SET "last_seen_at" = now() - interval '10 minutes',
              "idle_expires_at" = now() + interval '1 minute' WHERE "token_hash" = $1`,
      [hashOf(cookie)],
    );
    const before = await sessionRow(cookie);
    expect((await authStatus(cookie)).json().authenticated).toBe(true);
    expect(await sessionRow(cookie)).toEqual(before);
  });

  it('expires after the idle timeout', async () => {
    const idle = await gw.startAnother({ sessionIdleTimeoutSeconds: 1 });
    const cookie = await login(idle);
    expect(
      (await idle.inject({ method: 'GET', url: '/api/admin/auth-status', headers: { cookie } })).json()
        .authenticated,
    ).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const res = await idle.inject({ method: 'GET', url: '/api/dashboard/metrics', headers: { cookie } });
    expect(res.statusCode).toBe(401);
  });

  it('expires at the absolute timeout however active', async () => {
    const cookie = await login(gw.app);
    const row = await sessionRow(cookie);
    // The absolute timeout (7 days by default) caps the idle one.
    expect(row?.expires_at.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 60 * 60 * 1000);
    await gw.db.dataSource.query(
      `UPDATE "admin_sessions" SET "created_at" = now() - interval '8 days',
              "expires_at" = now() - interval '1 day', "last_seen_at" = now() WHERE "token_hash" = $1`,
      [hashOf(cookie)],
    );
    expect((await authStatus(cookie)).json().authenticated).toBe(false);
    expect(await sessionRow(cookie)).toBeUndefined();
  });
});

describe('sessions confirmed in memory', () => {
  const statusOn = async (gateway: NestFastifyApplication, cookie: string): Promise<boolean> =>
    (await gateway.inject({ method: 'GET', url: '/api/admin/auth-status', headers: { cookie } })).json<{
      authenticated: boolean;
    }>().authenticated;
  const until = async (check: () => Promise<boolean>): Promise<boolean> => {
    for (let i = 0; i < 50; i++) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  };

  it('ends at once on every gateway when it logs out on one of them', async () => {
    const other = await gw.startAnother();
    const cookie = await login(gw.app);
    const hash = hashOf(cookie);
    const moveRow = (from: string, to: string) =>
      gw.db.dataSource.query(`UPDATE "admin_sessions" SET "token_hash" = $2 WHERE "token_hash" = $1`, [
        from,
        to,
      ]);
    // The other gateway trusts the session from memory once its revocation channel is up: with
    // the row moved away it still answers authenticated.
    const trustedFromMemory = async (): Promise<boolean> => {
      expect(await statusOn(other, cookie)).toBe(true);
      await moveRow(hash, `${hash}:away`);
      const trusted = await statusOn(other, cookie);
      await moveRow(`${hash}:away`, hash);
      return trusted;
    };
    expect(await until(trustedFromMemory)).toBe(true);

    const res = await gw.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    // Well before its 5 s recheck: the other gateway heard of the logout through Redis.
    expect(await until(async () => !(await statusOn(other, cookie)))).toBe(true);
    const metrics = await other.inject({ method: 'GET', url: '/api/dashboard/metrics', headers: { cookie } });
    expect(metrics.statusCode).toBe(401);
  });

  it('asks Postgres again after the recheck interval (a tenth of the idle timeout at most)', async () => {
    const short = await gw.startAnother({ sessionIdleTimeoutSeconds: 3 }); // recheck after 300 ms
    const cookie = await login(short);
    expect(await statusOn(short, cookie)).toBe(true);
    // Deleted behind the gateways' back (no revocation message): memory still trusts it briefly.
    await gw.db.dataSource.query(`DELETE FROM "admin_sessions" WHERE "token_hash" = $1`, [hashOf(cookie)]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await statusOn(short, cookie)).toBe(false);
  });
});

describe('cross-site requests', () => {
  it.each([[{ origin: 'https://evil.example' }], [{ origin: 'null' }], [{ 'sec-fetch-site': 'cross-site' }]])(
    'refuses unsafe API calls from another site (%j)',
    async (headers) => {
      const res = await postLogin({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }, headers);
      expect(res.statusCode).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
      const signup = await gw.app.inject({
        method: 'POST',
        url: '/api/beta-signup',
        headers,
        payload: { email: 'csrf@example.com', region: '97201' },
      });
      expect(signup.statusCode).toBe(403);
    },
  );

  it('accepts same-origin calls, directly or through the edge', async () => {
    const direct = await postLogin(
      { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      { origin: 'http://localhost:80', host: 'localhost:80', 'sec-fetch-site': 'same-origin' },
    );
    expect(direct.statusCode).toBe(200);
    const viaEdge = await postLogin(
      { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      { origin: 'http://localhost:8080', host: '127.0.0.1:3000', 'x-forwarded-host': 'localhost:8080' },
    );
    expect(viaEdge.statusCode).toBe(200);
  });

  it("compares scheme, host and port of the Origin (or the Referer) with the request's own", async () => {
    const login = { username: ADMIN_USERNAME, password: ADMIN_PASSWORD };
    const refused: Array<Record<string, string>> = [
      // https page, http API: another origin
      { origin: 'https://localhost:8080', host: 'localhost:8080' },
      { origin: 'http://localhost:8080', host: 'localhost:8080', 'x-forwarded-proto': 'https' },
      // another port of the same host
      { origin: 'http://localhost:8081', host: 'localhost:8080' },
      { origin: 'http://localhost', host: 'localhost:8080' },
      // no Origin: the Referer says where the form was
      { referer: 'https://evil.example/csrf.html', host: 'localhost:8080' },
      { referer: 'http://localhost:9999/page', host: 'localhost:8080' },
    ];
    for (const headers of refused) {
      const res = await postLogin(login, headers);
      expect({ headers, status: res.statusCode }).toEqual({ headers, status: 403 });
    }
    const sameOrigin = await postLogin(login, {
      referer: 'http://localhost:8080/admin/login',
      host: 'localhost:8080',
    });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it('believes X-Forwarded-Host and -Proto only from a TRUST_PROXY peer', async () => {
    const login = { username: ADMIN_USERNAME, password: ADMIN_PASSWORD };
    // The tests' gateway trusts 127.0.0.1 (gw.app.inject's address), as the edge is trusted.
    const viaProxy = await postLogin(login, {
      origin: 'https://sprout.example',
      host: '127.0.0.1:3000',
      'x-forwarded-host': 'sprout.example',
      'x-forwarded-proto': 'https',
    });
    expect(viaProxy.statusCode).toBe(200);

    // With no trusted proxy, anyone's forwarded host is only a header: a forged one is refused.
    const untrusting = await gw.startAnother({ trustProxy: [] });
    const postUntrusted = (headers: Record<string, string>) =>
      untrusting.inject({ method: 'POST', url: '/api/admin/login', headers, payload: login });
    const forged = await postUntrusted({
      origin: 'http://evil.example',
      host: '127.0.0.1:3000',
      'x-forwarded-host': 'evil.example',
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ message: 'Cross-site requests are not allowed.' });
    const forgedProto = await postUntrusted({
      origin: 'https://localhost:8080',
      host: 'localhost:8080',
      'x-forwarded-proto': 'https',
    });
    expect(forgedProto.statusCode).toBe(403);
    const direct = await postUntrusted({ origin: 'http://localhost:3000', host: 'localhost:3000' });
    expect(direct.statusCode).toBe(200);
  });

  it('leaves safe methods alone', async () => {
    const res = await gw.app.inject({
      method: 'GET',
      url: '/api/admin/auth-status',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('password hashing', () => {
  it('uses argon2id for stored hashes', async () => {
    const admin = await gw.db.dataSource
      .getRepository(AdminUser)
      .findOneByOrFail({ username: ADMIN_USERNAME });
    expect(await argon2.verify(admin.passwordHash, ADMIN_PASSWORD)).toBe(true);
  });
});
