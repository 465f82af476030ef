// The module object itself (a namespace import would be a copy the service never calls through).
import crypto from 'node:crypto';
import { BetaSignup } from '@sprout/domain';
import { useClosable } from '@sprout/testing';
import { startSignedIn, expectStatusMessage, clientIps } from './support/gateway';

const gw = useClosable(() => startSignedIn());
const nextIp = clientIps(1);

beforeEach(async () => {
  await gw.ds.query('DELETE FROM beta_signups');
});

/** A signup body sent as `contentType` (not JSON). */
const signUpAs = (contentType: string, payload: string) =>
  gw.app.inject({
    method: 'POST',
    url: '/api/beta-signup',
    headers: { 'content-type': contentType, 'x-forwarded-for': nextIp() },
    payload,
  });

/** A request as the signed-in admin. */
const asAdmin = (method: 'GET' | 'POST', url: string) =>
  gw.app.inject({ method, url, headers: { cookie: gw.cookie } });

const signUp = (payload: unknown, ip = nextIp()) =>
  gw.app.inject({
    method: 'POST',
    url: '/api/beta-signup',
    headers: {
      'x-forwarded-for': ip,
      ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload === undefined ? {} : { payload: payload as string | object }),
  });

const CODE = /^SPROUT-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/;

describe('POST /api/beta-signup', () => {
  it('adds a pending signup with a unique code (201)', async () => {
    const res = await signUp({ email: 'ada@example.com', region: ' 97201 ' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      message: expect.any(String),
      signup: {
        id: expect.any(String),
        email: 'ada@example.com',
        zipCode: '97201',
        uniqueCode: expect.stringMatching(CODE),
        signupDate: expect.any(String),
        status: 'pending',
      },
    });
    expect(Number.isNaN(Date.parse(body.signup.signupDate))).toBe(false);
  });

  it.each([
    [undefined],
    [{}],
    [{ email: 'ada@example.com' }],
    [{ region: '97201' }],
    [{ email: '  ', region: '97201' }],
    [{ email: 'ada@example.com', region: '   ' }],
    [{ email: 12, region: ['97201'] }],
    [[]],
  ])('asks for both fields (%j)', async (payload) => {
    const res = await signUp(payload);
    expectStatusMessage(res, 400, 'Please provide both email and region.');
  });

  it.each(['not-an-email', 'ada@', '@example.com', 'ada example@example.com'])(
    'rejects the email %j',
    async (email) => {
      const res = await signUp({ email, region: '97201' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/valid email address/);
    },
  );

  it('rejects a zip code longer than 10 characters', async () => {
    const res = await signUp({ email: 'ada@example.com', region: '97201-12345' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/zip code/);
  });

  it('keeps one signup per email whatever its case, and says so kindly (200)', async () => {
    expect((await signUp({ email: 'Grace@Example.com', region: '10001' })).statusCode).toBe(201);
    const again = await signUp({ email: 'grace@example.COM', region: '94110' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({
      success: true,
      message: "You're already on the waitlist! We'll be in touch soon.",
      alreadyRegistered: true,
    });
    const rows = await gw.db.dataSource.getRepository(BetaSignup).find();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.zipCode).toBe('10001');
  });

  it('gives every signup its own code', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const res = await signUp({ email: `person${i}@example.com`, region: '97201' });
      expect(res.statusCode).toBe(201);
      codes.add(res.json().signup.uniqueCode);
    }
    expect(codes.size).toBe(12);
  });

  it('draws another code when one is already taken', async () => {
    await gw.ds.query(
      "INSERT INTO beta_signups (email, zip_code, unique_code) VALUES ('first@example.com', '97201', 'SPROUT-AAAAAA')",
    );
    const realRandomInt = crypto.randomInt;
    let calls = 0;
    // The first six draws spell the taken code (index 0 is "A"); later draws are random again.
    const spy = jest
      .spyOn(crypto, 'randomInt')
      .mockImplementation((max: number) => (++calls <= 6 ? 0 : realRandomInt(max)));
    try {
      const res = await signUp({ email: 'second@example.com', region: '97201' });
      expect(res.statusCode).toBe(201);
      expect(res.json().signup.uniqueCode).toMatch(CODE);
      expect(res.json().signup.uniqueCode).not.toBe('SPROUT-AAAAAA');
      expect(calls).toBeGreaterThan(6);
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses bodies that are not JSON with a 4xx', async () => {
    const res = await signUpAs('application/xml', '<signup/>');
    expect(res.statusCode).toBe(415);
  });

  it('answers malformed JSON and other bodies with 400, never 500', async () => {
    for (const payload of ['{"email":', 'null', '"text"', '42']) {
      const res = await signUp(payload);
      expect(res.statusCode).toBe(400);
    }
    const text = await signUpAs('text/plain', 'email=ada@example.com');
    expect(text.statusCode).toBeGreaterThanOrEqual(400);
    expect(text.statusCode).toBeLessThan(500);
  });

  it('limits signups per client IP (10 an hour)', async () => {
    const ip = '203.0.113.50';
    for (let i = 0; i < 10; i++) {
      expect((await signUp({ email: `limit${i}@example.com`, region: '97201' }, ip)).statusCode).toBe(201);
    }
    const blocked = await signUp({ email: 'limit-extra@example.com', region: '97201' }, ip);
    expectStatusMessage(blocked, 429, 'Too many signup attempts. Please try again later.');
    expect((await signUp({ email: 'limit-extra@example.com', region: '97201' })).statusCode).toBe(201);
  });
});

describe('admin: beta signups', () => {
  it('lists signups newest first as a bare array of email, zip code, code, status and date', async () => {
    await gw.ds.query(
      `INSERT INTO beta_signups (email, zip_code, unique_code, signup_date) VALUES
        ('old@example.com', '11111', 'SPROUT-AAAAAA', now() - interval '2 days'),
        ('new@example.com', '22222', 'SPROUT-BBBBBB', now()),
        ('mid@example.com', '33333', 'SPROUT-CCCCCC', now() - interval '1 day')`,
    );
    const res = await asAdmin('GET', '/api/admin/beta-signups');
    expect(res.statusCode).toBe(200);
    const list: Array<Record<string, unknown>> = res.json();
    expect(list.map((s) => s.email)).toEqual(['new@example.com', 'mid@example.com', 'old@example.com']);
    expect(Object.keys(list[0] ?? {}).sort()).toEqual([
      'email',
      'id',
      'signupDate',
      'status',
      'uniqueCode',
      'zipCode',
    ]);
  });

  it('approves a signup', async () => {
    const created = (await signUp({ email: 'approve-me@example.com', region: '97201' })).json().signup;
    const res = await gw.app.inject({
      method: 'POST',
      url: `/api/admin/beta-signups/${created.id}/approve`,
      headers: { cookie: gw.cookie },
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, signup: { ...created, status: 'approved' } });
    const row = await gw.db.dataSource.getRepository(BetaSignup).findOneByOrFail({ id: created.id });
    expect(row.status).toBe('approved');
    expect(row.approvedAt).toBeInstanceOf(Date);
    // Approving twice changes nothing.
    const again = await asAdmin('POST', `/api/admin/beta-signups/${created.id}/approve`);
    expect(again.statusCode).toBe(200);
    const after = await gw.db.dataSource.getRepository(BetaSignup).findOneByOrFail({ id: created.id });
    expect(after.approvedAt?.getTime()).toBe(row.approvedAt?.getTime());
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await asAdmin(
      'POST',
      '/api/admin/beta-signups/6f1c3b0e-8a43-4c1e-9d3f-2b7a9c0d1e2f/approve',
    );
    expect(unknown.statusCode).toBe(404);
    const malformed = await asAdmin('POST', '/api/admin/beta-signups/42/approve');
    expectStatusMessage(malformed, 400, 'Invalid beta signup id.');
  });

  it('rejects a malformed limit', async () => {
    const res = await asAdmin('GET', '/api/admin/beta-signups?limit=abc');
    expect(res.statusCode).toBe(400);
    const limited = await asAdmin('GET', '/api/admin/beta-signups?limit=1');
    expect(limited.statusCode).toBe(200);
  });

  it('needs a session', async () => {
    expect((await gw.app.inject({ method: 'GET', url: '/api/admin/beta-signups' })).statusCode).toBe(401);
  });
});
