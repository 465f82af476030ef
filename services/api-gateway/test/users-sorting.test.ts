// GET /api/admin/users sorted on every column of the Users table over all users, a keyset page at
// a time: each order against one computed here from the seeded values, pages walked to
// the end (no duplicates, no gaps, ties broken by id in the sort's direction), with a search and
// with the test-data flag; bad sorts and cursors are 400s with a message.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { USER_SORT_KEYS, type UserSortKey, type UserSortOrder } from '@sprout/contracts';
import type { DataSource } from 'typeorm';
import { UsersModule } from '../src/users/users.module';
import { CURSOR_INVALID, CURSOR_OTHER_ORDER } from '../src/users/user-sorts';
import { type SignedIn, startSignedInWith, expectStatusMessage } from './support/gateway';

let gateway: SignedIn | undefined;
let app: NestFastifyApplication;
let cookie: string;
let ds: DataSource;

/** What a seeded user sorts by, as generated (timestamps in microseconds since the base). */
interface Seeded {
  id: string;
  test: boolean;
  phone: string;
  region: string | null;
  isActive: boolean;
  messages: number;
  sentiment: string | null;
  cost: string;
  score: number;
  createdUs: number;
  lastUs: number | null;
}

const BASE = '2026-01-01T00:00:00Z';
const REGIONS = [null, 'alpine', 'Coastal', 'coastal', 'desert', 'Valley', null, 'prairie'];
const SENTIMENTS = [null, 'negative', 'frustrated', 'positive', 'neutral', 'positive', 'negative'];
const MESSAGES = [0, 3, 4, 5, 12, 19, 20, 25];
const COSTS = ['0', '0.000100', '0.012300', '0.012300', '1.500000'];
const SCORES = [0, 50, 100];

const users: Seeded[] = [];

const seedUser = async (n: number, test: boolean, phone: string): Promise<void> => {
  const region = REGIONS[n % REGIONS.length] ?? null;
  const seeded: Omit<Seeded, 'id'> = {
    test,
    phone,
    region,
    isActive: n % 3 !== 0,
    messages: MESSAGES[n % MESSAGES.length] ?? 0,
    sentiment: SENTIMENTS[n % SENTIMENTS.length] ?? null,
    cost: COSTS[n % COSTS.length] ?? '0',
    score: SCORES[n % SCORES.length] ?? 0,
    // Ties: pairs of users share their creation time; times are microsecond-exact.
    createdUs: Math.floor(n / 2) * 1_000_001 + 7,
    lastUs: n % 5 === 0 ? null : (n % 4) * 3_600_000_123,
  };
  // Every third region sits in the profile (which wins over the column).
  const profile = region !== null && n % 3 === 0 ? { region } : {};
  const [row]: Array<{ id: string }> = await ds.query(
    `INSERT INTO users (phone_number, is_test_user, region, profile, is_active, total_messages, average_sentiment,
       total_cost, profile_completion_score, created_at, last_message_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
             $10::timestamptz + $11 * interval '1 microsecond',
             $10::timestamptz + $12 * interval '1 microsecond') RETURNING id`,
    [
      phone,
      test,
      region !== null && n % 3 === 0 ? null : region,
      JSON.stringify(profile),
      seeded.isActive,
      seeded.messages,
      seeded.sentiment,
      seeded.cost,
      seeded.score,
      BASE,
      seeded.createdUs,
      seeded.lastUs,
    ],
  );
  if (row === undefined) throw new Error('insert returned no row');
  users.push({ id: row.id, ...seeded });
};

beforeAll(async () => {
  gateway = await startSignedInWith(UsersModule);
  ({ app, ds, cookie } = gateway);
  for (let n = 0; n < 46; n++)
    await seedUser(n, false, `+1${n % 2 === 0 ? '503' : '206'}555${String(1000 + n)}`);
  for (let n = 0; n < 9; n++) await seedUser(n + 3, true, `+1555555${String(2000 + n)}`);
}, 120_000);

afterAll(async () => {
  await gateway?.close();
});

const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });

type Key = string | number | null;

const SENTIMENT_RANK: Record<string, number> = { negative: 0, frustrated: 1, positive: 3 };
const keyOf = (u: Seeded, sort: UserSortKey): Key => {
  switch (sort) {
    case 'phoneNumber':
      return u.phone;
    case 'region':
      return u.region?.toLowerCase() ?? null;
    case 'isActive':
      return u.isActive ? 1 : 0;
    case 'totalMessages':
      return u.messages;
    case 'engagement':
      return u.messages >= 20 ? 2 : u.messages >= 5 ? 1 : 0;
    case 'sentiment':
      return SENTIMENT_RANK[(u.sentiment ?? '').trim().toLowerCase()] ?? 2;
    case 'totalCost':
      return Number(u.cost);
    case 'profileCompletionScore':
      return u.score;
    case 'createdAt':
      return u.createdUs;
    case 'lastMessageAt':
      return u.lastUs;
  }
};

const compare = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);

/** The order the API must answer: by key, ties by id, both in the direction; no key last. */
const expectedOrder = (sort: UserSortKey, order: UserSortOrder, pool: Seeded[]): string[] => {
  const sign = order === 'asc' ? 1 : -1;
  return [...pool]
    .sort((x, y) => {
      const a = keyOf(x, sort);
      const b = keyOf(y, sort);
      if (a === null || b === null) {
        if (a !== b) return a === null ? 1 : -1;
      } else if (a !== b) return sign * compare(a, b);
      return sign * compare(x.id, y.id);
    })
    .map((u) => u.id);
};

/** Every page of a query, following X-Next-Cursor to the end. */
const walk = async (query: string, limit: number): Promise<{ ids: string[]; pageSizes: number[] }> => {
  const ids: string[] = [];
  const pageSizes: number[] = [];
  let cursor = '';
  for (let pages = 0; pages < 200; pages++) {
    const res = await get(`/api/admin/users?${query}&limit=${limit}&cursor=${encodeURIComponent(cursor)}`);
    expect(res.statusCode).toBe(200);
    const page = res.json<Array<{ id: string }>>().map((u) => u.id);
    ids.push(...page);
    pageSizes.push(page.length);
    const next = res.headers['x-next-cursor'];
    if (typeof next !== 'string') return { ids, pageSizes };
    cursor = next;
  }
  throw new Error('more than 200 pages');
};

const real = (): Seeded[] => users.filter((u) => !u.test);
const sorts = USER_SORT_KEYS.flatMap((sort) =>
  (['asc', 'desc'] as const).map((order) => [sort, order] as const),
);

describe('GET /api/admin/users sorted', () => {
  it.each(sorts)('sorts by %s %s over every user, page after page', async (sort, order) => {
    const { ids, pageSizes } = await walk(`sort=${sort}&order=${order}`, 7);
    expect(ids).toEqual(expectedOrder(sort, order, real()));
    expect(new Set(ids).size).toBe(ids.length);
    // Full pages until the last.
    expect(pageSizes.slice(0, -1).every((size) => size === 7)).toBe(true);
  });

  it('answers the whole order in one page when it fits, without a next cursor', async () => {
    const res = await get('/api/admin/users?sort=totalCost&order=desc&limit=500');
    expect(res.json<Array<{ id: string }>>().map((u) => u.id)).toEqual(
      expectedOrder('totalCost', 'desc', real()),
    );
    expect(res.headers['x-next-cursor']).toBeUndefined();
    expect(res.headers['x-total-count']).toBe('46');
  });

  it('defaults to last message, newest first; a sort without an order is ascending', async () => {
    expect((await walk('', 10)).ids).toEqual(expectedOrder('lastMessageAt', 'desc', real()));
    expect((await walk('sort=region', 10)).ids).toEqual(expectedOrder('region', 'asc', real()));
  });

  it.each([
    ['totalMessages', 'desc'],
    ['region', 'asc'],
    ['lastMessageAt', 'asc'],
  ] as const)('sorts and pages test users only with showTestUsers=true (%s %s)', async (sort, order) => {
    const { ids } = await walk(`sort=${sort}&order=${order}&showTestUsers=true`, 2);
    expect(ids).toEqual(
      expectedOrder(
        sort,
        order,
        users.filter((u) => u.test),
      ),
    );
  });

  it.each([
    ['sentiment', 'asc'],
    ['createdAt', 'desc'],
    ['lastMessageAt', 'desc'],
  ] as const)('sorts and pages a search (%s %s)', async (sort, order) => {
    const { ids } = await walk(`search=%2B1503&sort=${sort}&order=${order}`, 4);
    expect(ids).toEqual(
      expectedOrder(
        sort,
        order,
        real().filter((u) => u.phone.startsWith('+1503')),
      ),
    );
  });

  it('sorts and pages a broad search past the count cap (the index walk)', async () => {
    await ds.query(
      `INSERT INTO users (phone_number, total_messages, total_cost, last_message_at)
       SELECT '+1777' || lpad(n::text, 7, '0'), n % 7, (n % 3) * 0.5, CASE WHEN n % 4 > 0 THEN now() - n * interval '1 minute' END
         FROM generate_series(1, 1005) n`,
    );
    try {
      const all: Array<{ id: string; phone_number: string; total_messages: number; last: string | null }> =
        await ds.query(
          `SELECT id, phone_number, total_messages, to_char(last_message_at, 'YYYYMMDDHH24MISSUS') AS last
             FROM users WHERE phone_number LIKE '+1777%'`,
        );
      const first = await get('/api/admin/users?search=%2B1777&sort=totalMessages&order=desc&limit=150');
      expect(first.headers['x-total-count']).toBe('1000');
      expect(first.headers['x-total-count-capped']).toBe('true');

      const byMessages = await walk('search=%2B1777&sort=totalMessages&order=desc', 150);
      expect(byMessages.ids).toEqual(
        [...all].sort((x, y) => y.total_messages - x.total_messages || compare(y.id, x.id)).map((u) => u.id),
      );
      const byLast = await walk('search=%2B1777&sort=lastMessageAt&order=asc', 200);
      expect(byLast.ids).toEqual(
        [...all]
          .sort((x, y) =>
            x.last === null || y.last === null
              ? x.last === y.last
                ? compare(x.id, y.id)
                : x.last === null
                  ? 1
                  : -1
              : compare(x.last, y.last) || compare(x.id, y.id),
          )
          .map((u) => u.id),
      );
    } finally {
      await ds.query(`DELETE FROM users WHERE phone_number LIKE '+1777%'`);
    }
  });

  it('answers nothing, and no cursor, for a search that cannot be a phone number', async () => {
    const res = await get('/api/admin/users?search=tomato&sort=totalCost');
    expect(res.json()).toEqual([]);
    expect(res.headers['x-next-cursor']).toBeUndefined();
  });

  const cursorOf = async (query: string): Promise<string> => {
    const next = (await get(`/api/admin/users?${query}&limit=3`)).headers['x-next-cursor'];
    if (typeof next !== 'string') throw new Error('no next cursor');
    return next;
  };
  const forge = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

  it.each([
    [
      'sort=name',
      'sort: must be one of phoneNumber, region, isActive, totalMessages, engagement, sentiment, totalCost, profileCompletionScore, createdAt, lastMessageAt',
    ],
    ['order=up', 'order: must be asc or desc'],
    ['cursor=not-a-cursor', CURSOR_INVALID],
    [`cursor=${'x'.repeat(401)}`, 'cursor: is not a cursor of this list'],
    [
      `cursor=${forge(['createdAt', 'asc', 'yesterday', '00000000-0000-4000-8000-000000000000'])}&sort=createdAt`,
      CURSOR_INVALID,
    ],
    [
      `cursor=${forge(['totalCost', 'asc', null, '00000000-0000-4000-8000-000000000000'])}&sort=totalCost`,
      CURSOR_INVALID,
    ],
    [`cursor=${forge(['totalCost', 'asc', '1.5', 'nobody'])}&sort=totalCost`, CURSOR_INVALID],
    [`cursor=${forge({ sort: 'totalCost' })}&sort=totalCost`, CURSOR_INVALID],
  ])('refuses %s with a readable 400', async (query, message) => {
    const res = await get(`/api/admin/users?${query}`);
    expectStatusMessage(res, 400, message);
  });

  it("refuses another sort's or order's cursor", async () => {
    const cursor = encodeURIComponent(await cursorOf('sort=totalCost&order=asc'));
    for (const query of ['sort=totalCost&order=desc', 'sort=createdAt&order=asc', '']) {
      const res = await get(`/api/admin/users?${query}&cursor=${cursor}`);
      expectStatusMessage(res, 400, CURSOR_OTHER_ORDER);
    }
  });
});
