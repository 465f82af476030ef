// GET /api/admin/users/stats/overview, /api/admin/users and /api/admin/users/{id} on seeded data,
// through the real app (guard, validation, error filter) with UsersModule imported.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DataSource } from 'typeorm';
import { UsersModule } from '../src/users/users.module';
import { type SignedIn, startSignedInWith, expectStatusMessage } from './support/gateway';
import { insertConversation } from './support/seed';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let gateway: SignedIn | undefined;
let app: NestFastifyApplication;
let cookie: string;
let ds: DataSource;
const now = Date.now();
const ago = (ms: number): Date => new Date(now - ms);

interface SeedUser {
  phone: string;
  test?: boolean;
  createdAt?: Date;
  lastMessageAt?: Date | null;
  isActive?: boolean;
  profile?: Record<string, unknown>;
  region?: string | null;
  zip?: string | null;
  score?: number;
  totals?: { messages: number; tokens: number; cost: number; smsCost?: number };
  sentiment?: string | null;
}

const addUser = async (u: SeedUser): Promise<string> => {
  const [row]: Array<{ id: string }> = await ds.query(
    `INSERT INTO users (phone_number, is_test_user, created_at, last_message_at, is_active, profile, region,
       zip_code, profile_completion_score, total_messages, total_tokens, total_cost, average_sentiment,
       hardiness_zone, total_sms_cost)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, '8b', $14) RETURNING id`,
    [
      u.phone,
      u.test ?? false,
      u.createdAt ?? ago(30 * DAY),
      u.lastMessageAt === undefined ? ago(2 * DAY) : u.lastMessageAt,
      u.isActive ?? true,
      JSON.stringify(u.profile ?? {}),
      u.region ?? null,
      u.zip ?? null,
      u.score ?? 0,
      u.totals?.messages ?? 0,
      u.totals?.tokens ?? 0,
      u.totals?.cost ?? 0,
      u.sentiment ?? null,
      u.totals?.smsCost ?? 0,
    ],
  );
  if (row === undefined) throw new Error('insert returned no row');
  return row.id;
};

const addMessage = async (
  userId: string,
  conversationId: string,
  at: Date,
  fields: {
    direction?: 'inbound' | 'outbound';
    cost?: number;
    smsCost?: number;
    tokens?: number;
    test?: boolean;
  } = {},
): Promise<void> => {
  const direction = fields.direction ?? 'inbound';
  await ds.query(
    `INSERT INTO messages (user_id, conversation_id, direction, content, status, cost, token_usage, is_test_user, created_at,
       sms_cost)
     VALUES ($1, $2, $3, 'hello', $4, $5, $6, $7, $8, $9)`,
    [
      userId,
      conversationId,
      direction,
      direction === 'inbound' ? 'received' : 'delivered',
      fields.cost ?? 0,
      fields.tokens ?? 0,
      fields.test ?? false,
      at,
      fields.smsCost ?? null,
    ],
  );
};

let alice: string; // real, active, rich profile, two conversations
let bob: string; // real, wrote yesterday evening-ish (within 24 h)
let carol: string; // real, quiet for a week, created 10 days ago
let dave: string; // real, never wrote, created 2 days ago
let tess: string; // test user

beforeAll(async () => {
  gateway = await startSignedInWith(UsersModule);
  ({ app, ds, cookie } = gateway);

  alice = await addUser({
    phone: '+15035550123',
    createdAt: ago(3 * DAY),
    lastMessageAt: ago(1 * HOUR),
    profile: {
      region: 'Pacific Northwest',
      growingContext: 'raised beds',
      preferences: ['organic', 'vegetables'],
      conversationStyle: 'brief',
    },
    region: 'Pacific Northwest',
    zip: '97201',
    score: 80,
    totals: { messages: 6, tokens: 900, cost: 0.0123, smsCost: 0.0581 },
    sentiment: 'positive',
  });
  bob = await addUser({
    phone: '+12065550188',
    createdAt: ago(7 * DAY - HOUR / 6), // 10 minutes inside the week
    lastMessageAt: ago(20 * HOUR),
    region: 'Puget Sound',
    totals: { messages: 2, tokens: 0, cost: 0 },
  });
  carol = await addUser({
    phone: '+13125550142',
    createdAt: ago(7 * DAY + HOUR / 6), // 10 minutes before the week
    lastMessageAt: ago(7 * DAY),
    isActive: false,
  });
  dave = await addUser({ phone: '+14155550999', createdAt: ago(2 * DAY), lastMessageAt: null });
  tess = await addUser({
    phone: '+15555550100',
    test: true,
    createdAt: ago(1 * DAY),
    lastMessageAt: ago(HOUR),
  });

  const a1 = await insertConversation(ds, alice);
  const a2 = await insertConversation(ds, alice);
  // Alice's messages: two today-ish, one 3 days ago, one 40 days ago (outside the 30-day window).
  await addMessage(alice, a1, ago(40 * DAY));
  await addMessage(alice, a1, ago(3 * DAY));
  await addMessage(alice, a1, ago(3 * DAY), {
    direction: 'outbound',
    cost: 0.002,
    tokens: 300,
    smsCost: 0.0249,
  });
  await addMessage(alice, a2, ago(HOUR));
  await addMessage(alice, a2, ago(HOUR), {
    direction: 'outbound',
    cost: 0.0013,
    tokens: 600,
    smsCost: 0.0166,
  });
  await addMessage(bob, await insertConversation(ds, bob), ago(20 * HOUR));
  await addMessage(tess, await insertConversation(ds, tess, true), ago(HOUR), { test: true });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
});

const get = (url: string, withCookie = true) =>
  app.inject({ method: 'GET', url, headers: withCookie ? { cookie } : {} });

const utcDate = (d: Date): string => d.toISOString().slice(0, 10);
const idsOf = (body: unknown): string[] => (body as Array<{ id: string }>).map((u) => u.id);

/** Alice's account as the list and the detail both answer it. */
const aliceAccount = () => ({
  id: alice,
  phoneNumber: '+15035550123',
  createdAt: ago(3 * DAY).toISOString(),
  isActive: true,
  lastMessageAt: ago(HOUR).toISOString(),
  profileCompletionScore: 80,
  zipCode: '97201',
  isTestUser: false,
});

describe('access', () => {
  it.each([
    '/api/admin/users/stats/overview',
    '/api/admin/users',
    '/api/admin/users/00000000-0000-4000-8000-000000000000',
    '/api/admin/sender-limits',
  ])('%s requires an admin session', async (url) => {
    const res = await get(url, false);
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/admin/users/stats/overview', () => {
  it("counts real users' figures by default", async () => {
    const res = await get('/api/admin/users/stats/overview');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      totalUsers: 4,
      activeUsers: 2, // alice (1 h) and bob (20 h); carol wrote a week ago, dave never
      newUsers: 3, // alice (3 days), dave (2 days) and bob (10 minutes inside the week); carol is 10 minutes out
      totalMessages: 6,
      engagementRate: 50,
    });
  });

  it('answers the same for showTestUsers=false and counts test users only with showTestUsers=true', async () => {
    expect((await get('/api/admin/users/stats/overview?showTestUsers=false')).json()).toEqual(
      (await get('/api/admin/users/stats/overview')).json(),
    );
    expect((await get('/api/admin/users/stats/overview?showTestUsers=true')).json()).toEqual({
      totalUsers: 1,
      activeUsers: 1,
      newUsers: 1,
      totalMessages: 1,
      engagementRate: 100,
    });
  });

  it('rounds the engagement rate to one decimal', async () => {
    const extra = await addUser({ phone: '+19995550001', lastMessageAt: ago(3 * DAY) });
    try {
      // 2 active of 5 = 40; add one more for 2 of 6 = 33.3
      const another = await addUser({ phone: '+19995550002', lastMessageAt: null });
      expect((await get('/api/admin/users/stats/overview')).json().engagementRate).toBe(33.3);
      await ds.query('DELETE FROM users WHERE id = $1', [another]);
    } finally {
      await ds.query('DELETE FROM users WHERE id = $1', [extra]);
    }
    expect((await get('/api/admin/users/stats/overview')).json().totalUsers).toBe(4);
  });

  it('refuses a showTestUsers that is not a boolean', async () => {
    const res = await get('/api/admin/users/stats/overview?showTestUsers=maybe');
    expectStatusMessage(res, 400, 'showTestUsers: must be true or false');
  });
});

describe('GET /api/admin/users', () => {
  it('lists real users, most recent message first, those who never wrote last, with X-Total-Count', async () => {
    const res = await get('/api/admin/users');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('4');
    expect(res.headers['x-total-count-capped']).toBe('false');
    const users = res.json();
    expect(idsOf(users)).toEqual([alice, bob, carol, dave]);
    expect(users[0]).toEqual({
      ...aliceAccount(),
      profile: {
        region: 'Pacific Northwest',
        growingContext: 'raised beds',
        preferences: ['organic', 'vegetables'],
        conversationStyle: 'brief',
      },
      analytics: { totalMessages: 6, totalCost: 0.0123, averageSentiment: 'positive' },
    });
    // No profile: the region column stands in, the rest is empty.
    expect(users[1].profile).toEqual({
      region: 'Puget Sound',
      growingContext: null,
      preferences: [],
      conversationStyle: null,
    });
    expect(users[2].isActive).toBe(false);
    expect(users[3].lastMessageAt).toBeNull();
  });

  it('lists only test users with showTestUsers=true', async () => {
    const res = await get('/api/admin/users?showTestUsers=true');
    expect(idsOf(res.json())).toEqual([tess]);
    expect(res.json()[0].isTestUser).toBe(true);
    expect(res.headers['x-total-count']).toBe('1');
  });

  const everyone = ['alice', 'bob', 'carol', 'dave'];
  it.each([
    ['503555', ['alice']], // digits anywhere in the number
    ['5550123', ['alice']], // the end of the number
    ['555', everyone], // every real number has 555
    ['(503) 555-0123', ['alice']], // punctuation is ignored
    ['+1503', ['alice']], // an E.164 prefix
    ['+1 206', ['bob']],
    ['+503', []], // a prefix: +503... is not +1503...
    ['20655', ['bob']],
    ['5', everyone],
    ['0000', []],
    ['alice', []], // not a phone number
    ['', everyone], // empty search lists everyone
  ])('searches phone digits: %j', async (search, expected) => {
    const res = await get(`/api/admin/users?search=${encodeURIComponent(search)}`);
    expect(res.statusCode).toBe(200);
    const ids = idsOf(res.json());
    expect(ids).toEqual(expected.map((name) => ({ alice, bob, carol, dave })[name]));
    expect(res.headers['x-total-count']).toBe(String(expected.length));
  });

  it('does not find test users in real data or real users in test data', async () => {
    expect((await get('/api/admin/users?search=5555550100')).json()).toEqual([]);
    expect((await get('/api/admin/users?search=503555&showTestUsers=true')).json()).toEqual([]);
    const ids = idsOf((await get('/api/admin/users?search=5555550100&showTestUsers=true')).json());
    expect(ids).toEqual([tess]);
  });

  it('honours limit but still counts everyone', async () => {
    const res = await get('/api/admin/users?limit=2');
    expect(idsOf(res.json())).toEqual([alice, bob]);
    expect(res.headers['x-total-count']).toBe('4');
  });

  it('caps the count of a broad search and says so', async () => {
    await ds.query(
      `INSERT INTO users (phone_number, last_message_at)
       SELECT '+1777' || lpad(n::text, 7, '0'), now() - n * interval '1 minute' FROM generate_series(1, 1005) n`,
    );
    try {
      const res = await get('/api/admin/users?search=%2B1777');
      expect(res.json()).toHaveLength(100);
      expect(res.headers['x-total-count']).toBe('1000');
      expect(res.headers['x-total-count-capped']).toBe('true');
      expect((await get('/api/admin/users')).headers['x-total-count']).toBe('1009');
    } finally {
      await ds.query(`DELETE FROM users WHERE phone_number LIKE '+1777%'`);
    }
  });

  it.each([
    ['showTestUsers=yes', 'showTestUsers: must be true or false'],
    ['limit=0', 'limit: must be a whole number from 1 to 500'],
    ['limit=501', 'limit: must be a whole number from 1 to 500'],
    ['limit=ten', 'limit: must be a whole number from 1 to 500'],
    [`search=${'5'.repeat(51)}`, 'search: must be at most 50 characters'],
    ['search=1&search=2', 'search: must be text'],
  ])('refuses %s with a readable 400', async (query, message) => {
    const res = await get(`/api/admin/users?${query}`);
    expectStatusMessage(res, 400, message);
  });
});

describe('GET /api/admin/users/:id', () => {
  it('answers the user with profile and analytics', async () => {
    const res = await get(`/api/admin/users/${alice}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const { analytics, rateLimit: _, ...user } = body;
    expect(user).toEqual({
      ...aliceAccount(),
      region: 'Pacific Northwest',
      hardinessZone: '8b',
      profile: {
        region: 'Pacific Northwest',
        growingContext: 'raised beds',
        preferences: ['organic', 'vegetables'],
        conversationStyle: 'brief',
      },
    });
    // Days are UTC days, newest first; the 40-day-old message is outside the window.
    const recent = [
      { date: utcDate(ago(HOUR)), messages: 2, cost: 0.0013, smsCost: 0.0166 },
      { date: utcDate(ago(3 * DAY)), messages: 2, cost: 0.002, smsCost: 0.0249 },
    ];
    expect(analytics).toEqual({
      totalMessages: 6,
      conversationSessions: 2,
      totalTokens: 900,
      avgTokensPerMessage: 150,
      totalCost: 0.0123,
      totalSmsCost: 0.0581,
      averageSentiment: 'positive',
      recentActivity: recent,
    });
    expect(body.rateLimit).toBeNull();
  });

  it('answers empty analytics for a user who never wrote', async () => {
    const body = (await get(`/api/admin/users/${dave}`)).json();
    expect(body.analytics).toEqual({
      totalMessages: 0,
      conversationSessions: 0,
      totalTokens: 0,
      avgTokensPerMessage: 0,
      totalCost: 0,
      totalSmsCost: 0,
      averageSentiment: null,
      recentActivity: [],
    });
    expect(body.lastMessageAt).toBeNull();
  });

  it('answers test users too (the id names the user)', async () => {
    const res = await get(`/api/admin/users/${tess}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().isTestUser).toBe(true);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const missing = await get('/api/admin/users/6b1d3f0e-9a8c-4c1e-9f0a-1234567890ab');
    expectStatusMessage(missing, 404, 'User not found.');
    const malformed = await get('/api/admin/users/not-a-uuid');
    expectStatusMessage(malformed, 400, 'User id must be a UUID');
  });

  it('is not confused with the stats route', async () => {
    expect((await get('/api/admin/users/stats')).statusCode).toBe(400);
  });
});

describe('rollups', () => {
  it('keep the user count exact through inserts, updates and deletes', async () => {
    const id = await addUser({ phone: '+18885550000' });
    expect((await get('/api/admin/users/stats/overview')).json().totalUsers).toBe(5);
    await ds.query('UPDATE users SET is_test_user = true WHERE id = $1', [id]);
    expect((await get('/api/admin/users/stats/overview')).json().totalUsers).toBe(4);
    expect((await get('/api/admin/users/stats/overview?showTestUsers=true')).json().totalUsers).toBe(2);
    await ds.query('DELETE FROM users WHERE id = $1', [id]);
    expect((await get('/api/admin/users/stats/overview?showTestUsers=true')).json().totalUsers).toBe(1);
    const [{ count }] = await ds.query('SELECT count(*)::int AS count FROM users WHERE NOT is_test_user');
    expect(count).toBe(4);
  });

  it("rebuild (after bulk loads) agrees with the triggers' counts", async () => {
    const before: Array<{ count: string }> = await ds.query(
      'SELECT metric, is_test_user, count FROM rollup_totals ORDER BY 1, 2',
    );
    const hourly = await ds.query(
      'SELECT metric, is_test_user, hour, count FROM rollup_hourly WHERE count <> 0 ORDER BY 1, 2, 3',
    );
    await ds.query('SELECT rollup_rebuild()');
    expect(
      await ds.query('SELECT metric, is_test_user, count FROM rollup_totals WHERE count <> 0 ORDER BY 1, 2'),
    ).toEqual(before.filter((r) => r.count !== '0'));
    expect(
      await ds.query('SELECT metric, is_test_user, hour, count FROM rollup_hourly ORDER BY 1, 2, 3'),
    ).toEqual(hourly);
  });
});

describe('per-sender reply limits', () => {
  /** Bob's stretch: limited 30 s ago, for half an hour, 12 texts unanswered. */
  const bobStretch = {
    window: 'minute',
    limit: 5,
    limitedAt: ago(30_000).toISOString(),
    limitedUntil: new Date(now + 30 * 60_000).toISOString(),
    active: true,
    refusedTexts: 12,
  };
  const limit = (userId: string, window: string, limitedAt: Date, limitedUntil: Date, refused: number) =>
    ds.query(
      `INSERT INTO sender_limits (user_id, limit_window, reply_limit, limited_at, limited_until, refused)
       VALUES ($1, $2, 5, $3, $4, $5)`,
      [userId, window, limitedAt, limitedUntil, refused],
    );
  beforeAll(async () => {
    await limit(bob, 'minute', ago(30_000), new Date(now + 30 * 60_000), 12); // limited now
    await limit(carol, 'hour', ago(3 * HOUR), ago(2 * HOUR), 4); // ended 2 hours ago
    await limit(dave, 'day', ago(3 * DAY), ago(2 * DAY), 40); // ended before the last 24 hours
  });
  afterAll(async () => {
    await ds.query('DELETE FROM sender_limits');
  });

  it('GET /api/admin/sender-limits lists who is limited now, then who was in the last 24 hours', async () => {
    const res = await get('/api/admin/sender-limits');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      senders: [
        { userId: bob, phoneNumber: '+12065550188', ...bobStretch },
        expect.objectContaining({ userId: carol, window: 'hour', active: false, refusedTexts: 4 }),
      ],
    });
  });

  it("shows a limited user's stretch on their detail, and none once it is over", async () => {
    expect((await get(`/api/admin/users/${bob}`)).json().rateLimit).toEqual(bobStretch);
    expect((await get(`/api/admin/users/${carol}`)).json().rateLimit).toBeNull();
  });
});
