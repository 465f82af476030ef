// GET /api/admin/conversations (paged and per user), /api/admin/conversations/{id}/messages and
// /api/admin/messages/stats on seeded data, through the real app with MessagesModule.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { clearOfUtcMidnight } from '@sprout/testing';
import type { DataSource } from 'typeorm';
import { MessagesModule } from '../src/messages/messages.module';
import { type SignedIn, startSignedInWith, expectStatusMessage } from './support/gateway';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// Room for clearOfUtcMidnight's wait (at most 10 minutes) on top of starting the app and seeding.
const SETUP_TIMEOUT_MS = 12 * MINUTE;

let gateway: SignedIn | undefined;
let app: NestFastifyApplication;
let cookie: string;
let ds: DataSource;
// The clock the fixtures are built from, read in beforeAll just before seeding.
let now: number;
let todayStart: Date;
let yesterdayStart: Date;
const ago = (ms: number): Date => new Date(now - ms);

const addUser = async (phone: string, fields: { test?: boolean; active?: boolean } = {}): Promise<string> => {
  const [row]: Array<{ id: string }> = await ds.query(
    'INSERT INTO users (phone_number, is_test_user, is_active) VALUES ($1, $2, $3) RETURNING id',
    [phone, fields.test ?? false, fields.active ?? true],
  );
  if (row === undefined) throw new Error('insert returned no row');
  return row.id;
};

interface SeedConversation {
  userId: string;
  test?: boolean;
  startedAt: Date;
  lastMessageAt: Date;
  endedAt?: Date | null;
  messageCount?: number;
  sentiment?: string | null;
  topics?: string[];
  summary?: string | null;
  keyOutcomes?: string | null;
  nextSteps?: string | null;
  region?: string | null;
  experienceLevel?: string | null;
  modelUsed?: string | null;
}

const addConversation = async (c: SeedConversation): Promise<string> => {
  const [row]: Array<{ id: string }> = await ds.query(
    `INSERT INTO conversations (user_id, is_test_user, started_at, last_message_at, ended_at, message_count, sentiment,
       topics, summary, key_outcomes, next_steps, region, experience_level, model_used)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
    [
      c.userId,
      c.test ?? false,
      c.startedAt,
      c.lastMessageAt,
      c.endedAt ?? null,
      c.messageCount ?? 0,
      c.sentiment ?? null,
      c.topics ?? [],
      c.summary ?? null,
      c.keyOutcomes ?? null,
      c.nextSteps ?? null,
      c.region ?? null,
      c.experienceLevel ?? null,
      c.modelUsed ?? null,
    ],
  );
  if (row === undefined) throw new Error('insert returned no row');
  return row.id;
};

interface SeedMessage {
  at: Date;
  direction: 'inbound' | 'outbound';
  kind?: 'reply' | 'survey';
  status?: string;
  content?: string;
  errorMessage?: string | null;
  cost?: number;
  smsCost?: number | null;
  segments?: number | null;
  tokens?: number;
  model?: string | null;
  media?: Array<{ url: string; contentType: string }>;
  test?: boolean;
}

/** Every message seeded, for the statistics' reference counts. */
const seeded: Array<SeedMessage & { id: string }> = [];

const addMessage = async (userId: string, conversationId: string, m: SeedMessage): Promise<string> => {
  const [row]: Array<{ id: string }> = await ds.query(
    `INSERT INTO messages (user_id, conversation_id, direction, kind, content, status, error_message, cost, token_usage,
       model_used, media, is_test_user, created_at, sms_cost, segments)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
    [
      userId,
      conversationId,
      m.direction,
      m.kind ?? 'reply',
      m.content ?? 'hello',
      m.status ?? (m.direction === 'inbound' ? 'received' : 'delivered'),
      m.errorMessage ?? null,
      m.cost ?? 0,
      m.tokens ?? 0,
      m.model ?? null,
      JSON.stringify(m.media ?? []),
      m.test ?? false,
      m.at,
      m.smsCost ?? null,
      m.segments ?? null,
    ],
  );
  if (row === undefined) throw new Error('insert returned no row');
  seeded.push({ ...m, id: row.id });
  return row.id;
};

let uma: string; // real, active, +15035550123
let vic: string; // real, inactive, +12065550188
let tina: string; // test user
let umaOld: string; // ended, summarised
let umaNew: string; // ongoing
let vicConv: string;
let tinaConv: string;
let emptyConv: string;
let percentConv: string;
let failedId: string;

// Points in time the statistics depend on, each well away from the boundaries it is tested against.
const todayAt = (fraction: number): Date =>
  new Date(todayStart.getTime() + (now - todayStart.getTime()) * fraction);
const yesterdaySoFarAt = (fraction: number): Date =>
  new Date(yesterdayStart.getTime() + (now - todayStart.getTime()) * fraction);
/**
 * Between 24 hours ago and midnight: yesterday, yet within the last 24 hours (at least 5 minutes
 * inside the window, as midnight is at least 10 minutes away when the fixtures are built).
 */
const lateYesterday = (): Date => new Date((now - DAY + todayStart.getTime()) / 2);

beforeAll(async () => {
  gateway = await startSignedInWith(MessagesModule);
  ({ app, ds, cookie } = gateway);

  // The UTC day must not end while the file runs: "today" and "yesterday" would move under it.
  now = (await clearOfUtcMidnight(10 * MINUTE)).getTime();
  todayStart = new Date(Math.floor(now / DAY) * DAY);
  yesterdayStart = new Date(todayStart.getTime() - DAY);

  uma = await addUser('+15035550123');
  vic = await addUser('+12065550188', { active: false });
  tina = await addUser('+15555550100', { test: true });

  umaOld = await addConversation({
    userId: uma,
    startedAt: ago(3 * DAY + 10 * MINUTE),
    lastMessageAt: ago(3 * DAY),
    endedAt: ago(3 * DAY - 6 * HOUR),
    messageCount: 3,
    sentiment: 'positive',
    topics: ['tomatoes', 'early blight', 'mulching', 'watering'],
    summary: 'Talked through early blight on Roma tomatoes.',
    keyOutcomes: '- Identified early blight\n- Plan to mulch the beds',
    nextSteps: '1. Remove lower leaves\n2. Water at the base',
    region: 'Pacific Northwest',
    experienceLevel: 'beginner',
    modelUsed: 'gpt-4o-mini',
  });
  umaNew = await addConversation({
    userId: uma,
    startedAt: todayAt(0.2),
    lastMessageAt: todayAt(0.6),
    messageCount: 4,
    topics: ['aphids'],
    region: 'Pacific Northwest',
  });
  vicConv = await addConversation({
    userId: vic,
    startedAt: yesterdaySoFarAt(0.1),
    lastMessageAt: lateYesterday(),
    endedAt: lateYesterday(),
    messageCount: 4,
    sentiment: 'frustrated',
    topics: ['slugs', 'lettuce'],
    summary: 'Slugs eating lettuce; suggested beer traps.',
    keyOutcomes: 'Beer traps',
    region: 'Puget Sound',
    experienceLevel: 'intermediate',
    modelUsed: 'gpt-4o',
  });
  tinaConv = await addConversation({
    userId: tina,
    test: true,
    startedAt: todayAt(0.3),
    lastMessageAt: todayAt(0.3),
    messageCount: 1,
    topics: ['tomatoes'],
    summary: 'Simulator run about tomatoes.',
    region: 'Pacific Northwest',
  });
  emptyConv = await addConversation({
    userId: vic,
    startedAt: ago(10 * DAY),
    lastMessageAt: ago(10 * DAY),
  });
  percentConv = await addConversation({
    userId: vic,
    startedAt: ago(9 * DAY),
    lastMessageAt: ago(9 * DAY),
    summary: 'Germination rate was 50% this year_ouch',
  });

  // uma, 3 days ago: the old conversation (one reply failed to deliver, one undelivered).
  await addMessage(uma, umaOld, {
    at: ago(3 * DAY + 10 * MINUTE),
    direction: 'inbound',
    content: 'My tomatoes have spots',
  });
  await addMessage(uma, umaOld, {
    at: ago(3 * DAY + 5 * MINUTE),
    direction: 'outbound',
    content: 'That looks like early blight.',
    status: 'undelivered',
    errorMessage: 'Unknown destination handset',
    cost: 0.0021,
    smsCost: 0.0166,
    segments: 2,
    tokens: 420,
    model: 'gpt-4o-mini',
  });
  failedId = await addMessage(uma, umaOld, {
    at: ago(3 * DAY),
    direction: 'outbound',
    content: 'Mulch helps too.',
    status: 'failed',
    cost: 0.001,
    tokens: 200,
    model: 'gpt-4o-mini',
  });
  // uma, today: two questions, a reply and a survey.
  const umaToday: SeedMessage[] = [
    {
      at: todayAt(0.2),
      direction: 'inbound',
      content: 'Aphids everywhere!',
      media: [{ url: 'https://media.example/aphids.jpg', contentType: 'image/jpeg' }],
    },
    { at: todayAt(0.3), direction: 'outbound', content: 'Try a strong jet of water.' },
    { at: todayAt(0.5), direction: 'inbound', content: 'Did not work' },
    { at: todayAt(0.6), direction: 'outbound', kind: 'survey', content: 'Quick survey?' },
  ];
  for (const m of umaToday) await addMessage(uma, umaNew, m);
  const vicMessages: SeedMessage[] = [
    // Yesterday: two before this time of day, two after it (within the last 24 hours).
    { at: yesterdaySoFarAt(0.1), direction: 'inbound', content: 'Slugs!' },
    { at: yesterdaySoFarAt(0.2), direction: 'outbound', content: 'Beer traps.' },
    { at: lateYesterday(), direction: 'inbound', content: 'Which beer?' },
    { at: lateYesterday(), direction: 'outbound', content: 'Any cheap lager.' },
    // Either side of "24 hours ago" by five minutes (the partial first hour of the window), which
    // leaves a slow run five minutes between seeding and reading the stats.
    { at: ago(DAY - 5 * MINUTE), direction: 'inbound', content: 'just inside' },
    { at: ago(DAY + 5 * MINUTE), direction: 'inbound', content: 'just outside' },
  ];
  for (const m of vicMessages) await addMessage(vic, vicConv, m);
  // tina (test user), today.
  await addMessage(tina, tinaConv, {
    at: todayAt(0.3),
    direction: 'inbound',
    content: 'Test tomato question',
    test: true,
  });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.close();
});

const get = (url: string, withCookie = true) =>
  app.inject({ method: 'GET', url, headers: withCookie ? { cookie } : {} });

const ids = (body: { conversations: Array<{ id: string }> }): string[] => body.conversations.map((c) => c.id);

describe('access', () => {
  it.each([
    '/api/admin/conversations',
    '/api/admin/conversations?userId=6b1d3f0e-9a8c-4c1e-9f0a-1234567890ab',
    '/api/admin/conversations/6b1d3f0e-9a8c-4c1e-9f0a-1234567890ab/messages',
    '/api/admin/messages/stats',
  ])('%s requires an admin session', async (url) => {
    expect((await get(url, false)).statusCode).toBe(401);
  });
});

describe('GET /api/admin/conversations (paged)', () => {
  it("lists real users' conversations, newest activity first, with times, counts, sentiment, topics and summary", async () => {
    const res = await get('/api/admin/conversations?page=1&limit=20&search=&showTestData=false');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(ids(body)).toEqual([umaNew, vicConv, umaOld, percentConv, emptyConv]);
    expect(body.pagination).toEqual({
      page: 1,
      limit: 20,
      total: 5,
      totalPages: 1,
      totalIsExact: true,
      nextCursor: null,
    });
    expect(body.conversations[2]).toEqual({
      id: umaOld,
      userId: uma,
      phoneNumber: '+15035550123',
      userActive: true,
      messageCount: 3,
      startTime: ago(3 * DAY + 10 * MINUTE).toISOString(),
      firstMessageAt: ago(3 * DAY + 10 * MINUTE).toISOString(),
      endTime: ago(3 * DAY - 6 * HOUR).toISOString(),
      lastMessageAt: ago(3 * DAY).toISOString(),
      sentiment: 'positive',
      topicsDiscussed: ['tomatoes', 'early blight', 'mulching', 'watering'],
      summary: 'Talked through early blight on Roma tomatoes.',
      keyOutcomes: ['Identified early blight', 'Plan to mulch the beds'],
      nextSteps: ['Remove lower leaves', 'Water at the base'],
      region: 'Pacific Northwest',
      experienceLevel: 'beginner',
      modelUsed: 'gpt-4o-mini',
      lastMessage: 'Mulch helps too.',
      isTestUser: false,
    });
    // Ongoing, no summary yet; an inactive user; a conversation without messages.
    expect(body.conversations[0]).toMatchObject({
      endTime: null,
      summary: null,
      keyOutcomes: [],
      nextSteps: [],
    });
    expect(body.conversations[1]).toMatchObject({
      userActive: false,
      keyOutcomes: ['Beer traps'],
      nextSteps: [],
    });
    expect(body.conversations[4]).toMatchObject({ lastMessage: null, topicsDiscussed: [], sentiment: null });
  });

  it('defaults to page 1 of 20 and shows test data only with showTestData=true', async () => {
    expect((await get('/api/admin/conversations')).json()).toEqual(
      (await get('/api/admin/conversations?page=1&limit=20&showTestData=false')).json(),
    );
    const test = (await get('/api/admin/conversations?showTestData=true')).json();
    expect(ids(test)).toEqual([tinaConv]);
    expect(test.conversations[0]).toMatchObject({ isTestUser: true, phoneNumber: '+15555550100' });
    expect(test.pagination).toMatchObject({ total: 1, totalPages: 1 });
  });

  it('pages', async () => {
    const page1 = (await get('/api/admin/conversations?page=1&limit=2')).json();
    const page2 = (await get('/api/admin/conversations?page=2&limit=2')).json();
    const page3 = (await get('/api/admin/conversations?page=3&limit=2')).json();
    const page4 = (await get('/api/admin/conversations?page=4&limit=2')).json();
    expect([...ids(page1), ...ids(page2), ...ids(page3)]).toEqual([
      umaNew,
      vicConv,
      umaOld,
      percentConv,
      emptyConv,
    ]);
    expect(page2.pagination).toEqual({
      page: 2,
      limit: 2,
      total: 5,
      totalPages: 3,
      totalIsExact: true,
      nextCursor: expect.stringMatching(/^\d+_[0-9a-f-]{36}$/),
    });
    expect(page3.pagination.nextCursor).toBeNull();
    expect(page4.conversations).toEqual([]);

    // The same pages by cursor: each starts right after the last row of the one before.
    const byCursor1 = (
      await get(`/api/admin/conversations?page=2&limit=2&cursor=${page1.pagination.nextCursor}`)
    ).json();
    expect(byCursor1).toEqual(page2);
    const byCursor2 = (
      await get(`/api/admin/conversations?page=3&limit=2&cursor=${page2.pagination.nextCursor}`)
    ).json();
    expect(byCursor2).toEqual(page3);
  });

  it.each([
    ['tomatoes', ['umaOld']], // a topic (and the test user's, not shown in real data)
    ['BLIGHT', ['umaOld']], // the summary, any case
    ['pacific northwest', ['umaNew', 'umaOld']], // the region
    ['puget', ['vicConv']],
    ['aphid', ['umaNew']],
    ['slugs traps', ['vicConv']], // every word, anything between them
    ['traps SLUGS', ['vicConv']], // in any order
    ['lettuce eating', ['vicConv']],
    ['lettuce blight', []], // each word somewhere, but not both in one conversation
    ['omatoe', ['umaOld']], // inside a word (the word index's windows start at every letter)
    ['ROMA toMATO early', ['umaOld']],
    ['slugs lettuce;', ['vicConv']], // a word with punctuation (LIKE) beside one the word index takes
    ['year_ouch rate', ['percentConv']],
    ['503555', ['umaNew', 'umaOld']], // phone digits
    ['+1 206', ['vicConv', 'percentConv', 'emptyConv']], // an E.164 prefix
    ['50%', ['percentConv']], // LIKE wildcards are literal
    ['_ouch', ['percentConv']],
    ['%', ['percentConv']],
    ['ee', ['vicConv']], // too short for the trigram index: the newest conversations are searched
    ['xyzzy', []],
  ])('searches summary, region, topics and phone: %j', async (search, expected) => {
    const names: Record<string, string> = { umaOld, umaNew, vicConv, percentConv, emptyConv };
    const res = await get(`/api/admin/conversations?page=1&limit=20&search=${encodeURIComponent(search)}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(ids(body)).toEqual(expected.map((name) => names[name]));
    expect(body.pagination).toEqual({
      page: 1,
      limit: 20,
      total: expected.length,
      totalPages: 1,
      totalIsExact: true,
      nextCursor: null,
    });
  });

  it('finds words in texts the word index leaves out, in long words, and in changed summaries', async () => {
    // A run of letters over 200 keeps a text out of the word index (idx_conversations_search_long
    // finds it); a run of 148 is one vocabulary word, found from any part of it.
    const long = await addConversation({
      userId: vic,
      startedAt: new Date(now - 40 * DAY),
      lastMessageAt: new Date(now - 40 * DAY),
      summary: `${'z'.repeat(250)} Compost notes, then quinoa.`,
    });
    const longWord = await addConversation({
      userId: vic,
      startedAt: new Date(now - 41 * DAY),
      lastMessageAt: new Date(now - 41 * DAY),
      summary: `Pasted ${'x'.repeat(70)}kohlrabi${'y'.repeat(70)} by mistake`,
    });
    try {
      const search = async (text: string): Promise<string[]> =>
        ids((await get(`/api/admin/conversations?search=${encodeURIComponent(text)}`)).json());
      expect(await search('quinoa')).toEqual([long]);
      expect(await search('QUINOA compost')).toEqual([long]);
      expect(await search('quinoa lettuce')).toEqual([]);
      expect(await search('kohlrabi')).toEqual([longWord]);
      expect(await search(`xxx${'x'.repeat(62)}kohl`)).toEqual([longWord]);
      expect(await search('kohlrabi mistake pasted')).toEqual([longWord]);
      // A new word in a summary joins the vocabulary as it is written.
      expect(await search('rutabaga')).toEqual([]);
      await ds.query(`UPDATE conversations SET summary = 'Pasted rutabagas by mistake' WHERE id = $1`, [
        longWord,
      ]);
      expect(await search('rutabaga')).toEqual([longWord]);
      expect(await search('kohlrabi')).toEqual([]);
    } finally {
      await ds.query('DELETE FROM conversations WHERE id = ANY($1)', [[long, longWord]]);
    }
  });

  it('searches test data only with showTestData=true', async () => {
    expect(ids((await get('/api/admin/conversations?search=simulator&showTestData=true')).json())).toEqual([
      tinaConv,
    ]);
    expect(ids((await get('/api/admin/conversations?search=simulator')).json())).toEqual([]);
  });

  it.each([
    ['page=0', 'page: must be a whole number from 1 to 1000000'],
    ['page=two', 'page: must be a whole number from 1 to 1000000'],
    ['limit=101', 'limit: must be a whole number from 1 to 100'],
    ['limit=-1', 'limit: must be a whole number from 1 to 100'],
    ['showTestData=yes', 'showTestData: must be true or false'],
    [`search=${'a'.repeat(101)}`, 'search: must be at most 100 characters'],
    ['userId=42', 'userId: must be a UUID'],
    ['cursor=42', 'cursor: must be a pagination.nextCursor this list answered'],
    ['cursor=1700000000000000_not-a-uuid', 'cursor: must be a pagination.nextCursor this list answered'],
    [
      'page=501',
      'page: without a cursor, pages reach the first 10000 conversations; page on with cursor (pagination.nextCursor)',
    ],
    [
      'page=101&limit=100&search=tomatoes',
      'page: without a cursor, pages reach the first 10000 conversations; page on with cursor (pagination.nextCursor)',
    ],
  ])('refuses %s with a readable 400', async (query, message) => {
    const res = await get(`/api/admin/conversations?${query}`);
    expectStatusMessage(res, 400, message);
  });
});

describe('GET /api/admin/conversations reaches every conversation (keyset paging)', () => {
  // One bulk user with 25,001 conversations, more than the 10,000 the list used to reach and the
  // 20,000 a short-word search looks at per request. Pairs share their last_message_at, so the
  // order's tie-break (id) is paged over too.
  const BULK = 25_001;
  let bulk: string;
  let expectedOrder: string[];

  /** Every page from the top by cursor: the ids in order, the pages' paginations. */
  const walk = async (query: string) => {
    const seen: string[] = [];
    const paginations: Array<{
      page: number;
      total: number;
      totalIsExact: boolean;
      nextCursor: string | null;
    }> = [];
    let cursor: string | null = null;
    let page = 1;
    do {
      const url: string = `/api/admin/conversations?limit=100&page=${page}&${query}${cursor === null ? '' : `&cursor=${cursor}`}`;
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...ids(body));
      paginations.push(body.pagination);
      cursor = body.pagination.nextCursor;
      page += 1;
    } while (cursor !== null);
    return { seen, paginations };
  };

  beforeAll(async () => {
    bulk = await addUser('+19995550000');
    await ds.query(
      `INSERT INTO conversations (user_id, started_at, last_message_at, summary)
       SELECT $1, now() - interval '400 days', now() - interval '20 days' - (n / 2) * interval '1 minute',
              CASE WHEN n <= 3000 THEN 'Bulk question about clubroot'
                   WHEN n BETWEEN 4001 AND 5200 THEN 'Bulk question about clubfoot'
                   WHEN n = 11500 THEN 'Zucchini glut'
                   WHEN n = 24000 THEN 'Bulk qz note' END
         FROM generate_series(1, ${BULK}) n`,
      [bulk],
    );
    await ds.query('ANALYZE conversations');
    const rows: Array<{ id: string }> = await ds.query(
      'SELECT id FROM conversations WHERE NOT is_test_user ORDER BY last_message_at DESC, id DESC',
    );
    expectedOrder = rows.map((r) => r.id);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await ds.query('DELETE FROM users WHERE id = $1', [bulk]);
  });

  it('browses every conversation by cursor, in order, with no duplicates or gaps, and an exact total', async () => {
    const { seen, paginations } = await walk('');
    expect(seen).toHaveLength(BULK + 5);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expectedOrder);
    expect(paginations).toHaveLength(Math.ceil((BULK + 5) / 100));
    for (const [index, pagination] of paginations.entries())
      expect(pagination).toMatchObject({ page: index + 1, total: BULK + 5, totalIsExact: true });
    expect(paginations.at(-1)).toMatchObject({ totalPages: Math.ceil((BULK + 5) / 100), nextCursor: null });
  }, 120_000);

  it('keeps a cursor page stable when newer activity arrives above it', async () => {
    const first = (await get('/api/admin/conversations?limit=20')).json();
    const second = (
      await get(`/api/admin/conversations?limit=20&page=2&cursor=${first.pagination.nextCursor}`)
    ).json();
    // The oldest bulk conversation becomes the newest: it moves to the top, the cursor's page stays.
    const oldest = expectedOrder.at(-1);
    await ds.query(
      `UPDATE conversations SET last_message_at = (SELECT max(last_message_at) FROM conversations) + interval '1 minute'
        WHERE id = $1`,
      [oldest],
    );
    try {
      const again = (
        await get(`/api/admin/conversations?limit=20&page=2&cursor=${first.pagination.nextCursor}`)
      ).json();
      expect(ids(again)).toEqual(ids(second));
      expect(ids((await get('/api/admin/conversations?limit=20')).json())[0]).toBe(oldest);
    } finally {
      await ds.query(
        `UPDATE conversations SET last_message_at = now() - interval '20 days' - (${BULK} / 2) * interval '1 minute' WHERE id = $1`,
        [oldest],
      );
    }
  });

  it('searches over every conversation: more than 1,000 matches, all reached by cursor', async () => {
    // 1,200 matches, fewer than counting per poll allows: an exact total.
    const clubfoot = await walk('search=clubfoot');
    expect(clubfoot.seen).toHaveLength(1200);
    expect(new Set(clubfoot.seen).size).toBe(1200);
    expect(clubfoot.seen).toEqual(expectedOrder.filter((id) => clubfoot.seen.includes(id)));
    expect(clubfoot.paginations[0]).toMatchObject({ total: 1200, totalPages: 12, totalIsExact: true });

    // Every word, in any order, inside other words too, over all of them.
    const both = await walk('search=foot%20bulk');
    expect(both.seen).toEqual(clubfoot.seen);

    // 3,000 matches: more than are worth counting per poll, so the planner's estimate, said so.
    const clubroot = await walk('search=clubroot');
    expect(clubroot.seen).toHaveLength(3000);
    expect(new Set(clubroot.seen).size).toBe(3000);
    const first = clubroot.paginations[0]!;
    expect(first.totalIsExact).toBe(false);
    expect(first.total).toBeGreaterThan(2000);
    expect(first.total).toBeLessThan(4500);
    // The last page, reached from the top, knows it is the last one.
    expect(clubroot.paginations.at(-1)).toMatchObject({ nextCursor: null });
  }, 120_000);

  it('finds matches older than the newest 10,000 conversations, short words too', async () => {
    const idOf = async (summary: string): Promise<string | undefined> =>
      (await ds.query<Array<{ id: string }>>('SELECT id FROM conversations WHERE summary = $1', [summary]))[0]
        ?.id;
    const zucchini = (await get('/api/admin/conversations?search=zucchini')).json();
    expect(ids(zucchini)).toEqual([await idOf('Zucchini glut')]);
    expect(expectedOrder.indexOf(ids(zucchini)[0] ?? '')).toBeGreaterThan(11_000);
    expect(zucchini.pagination).toMatchObject({ total: 1, totalIsExact: true, nextCursor: null });
    // Too short for the trigram index: the recency walk looks at 20,000 conversations a request,
    // then answers where it stopped as the cursor, and the next request goes on from there.
    const qz = (await get('/api/admin/conversations?search=qz')).json();
    expect(qz.conversations).toEqual([]);
    expect(qz.pagination.totalIsExact).toBe(false);
    expect(qz.pagination.nextCursor).toMatch(new RegExp(`_${expectedOrder[19_999]}$`));
    const on = (
      await get(`/api/admin/conversations?search=qz&page=2&cursor=${qz.pagination.nextCursor}`)
    ).json();
    expect(ids(on)).toEqual([await idOf('Bulk qz note')]);
    expect(on.pagination.nextCursor).toBeNull();
    // A short word with many matches fills its page from the newest conversations.
    const bulkWord = (await get('/api/admin/conversations?search=lk')).json();
    expect(ids(bulkWord)).toHaveLength(20);
  });

  it("pages a phone search's many conversations by cursor", async () => {
    const first = (await get('/api/admin/conversations?search=%2B1999555&limit=50')).json();
    expect(first.conversations).toHaveLength(50);
    const second = (
      await get(
        `/api/admin/conversations?search=%2B1999555&limit=50&page=2&cursor=${first.pagination.nextCursor}`,
      )
    ).json();
    expect([...ids(first), ...ids(second)]).toEqual(expectedOrder.slice(5, 105));
  });

  it('counts off pages without a cursor up to the first 10,000 conversations', async () => {
    const last = (await get('/api/admin/conversations?page=500')).json();
    expect(ids(last)).toEqual(expectedOrder.slice(9980, 10_000));
    expect(last.pagination).toMatchObject({
      page: 500,
      total: BULK + 5,
      totalPages: Math.ceil((BULK + 5) / 20),
    });
    const next = (await get(`/api/admin/conversations?page=501&cursor=${last.pagination.nextCursor}`)).json();
    expect(ids(next)).toEqual(expectedOrder.slice(10_000, 10_020));
  });
});

describe('GET /api/admin/conversations?userId= (user panel)', () => {
  it("lists one user's conversations, newest first, up to 100 by default", async () => {
    const res = await get(`/api/admin/conversations?userId=${uma}&showTestData=false`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(ids(body)).toEqual([umaNew, umaOld]);
    expect(body.pagination).toEqual({
      page: 1,
      limit: 100,
      total: 2,
      totalPages: 1,
      totalIsExact: true,
      nextCursor: null,
    });
    expect(ids((await get(`/api/admin/conversations?userId=${vic}&limit=1&page=2`)).json())).toEqual([
      percentConv,
    ]);
  });

  it("lists a user's conversations whatever showTestData says (the panel sends false)", async () => {
    for (const flag of ['true', 'false']) {
      expect(ids((await get(`/api/admin/conversations?userId=${tina}&showTestData=${flag}`)).json())).toEqual(
        [tinaConv],
      );
      expect(ids((await get(`/api/admin/conversations?userId=${uma}&showTestData=${flag}`)).json())).toEqual([
        umaNew,
        umaOld,
      ]);
    }
  });

  it('answers 404 for an unknown user', async () => {
    const res = await get('/api/admin/conversations?userId=6b1d3f0e-9a8c-4c1e-9f0a-1234567890ab');
    expectStatusMessage(res, 404, 'User not found.');
  });
});

describe('GET /api/admin/conversations/:id/messages', () => {
  it('answers the messages oldest first with direction, status, costs and tokens', async () => {
    const res = await get(`/api/admin/conversations/${umaOld}/messages?showTestData=false`);
    expect(res.statusCode).toBe(200);
    const messages = res.json();
    expect((messages as Array<{ content: string }>).map((m) => m.content)).toEqual([
      'My tomatoes have spots',
      'That looks like early blight.',
      'Mulch helps too.',
    ]);
    expect(messages[1]).toEqual({
      id: expect.any(String),
      content: 'That looks like early blight.',
      direction: 'outbound',
      createdAt: ago(3 * DAY + 5 * MINUTE).toISOString(),
      status: 'undelivered',
      errorMessage: 'Unknown destination handset',
      cost: 0.0021,
      smsCost: 0.0166,
      segments: 2,
      tokenUsage: 420,
      modelUsed: 'gpt-4o-mini',
      isTestUser: false,
      imageUrl: null,
      imageAnalysis: null,
    });
    expect(messages[2]).toMatchObject({ status: 'failed', errorMessage: null });
    expect(messages[0]).toMatchObject({
      direction: 'inbound',
      status: 'received',
      cost: 0,
      smsCost: null,
      modelUsed: null,
    });
  });

  it("includes a picture's URL", async () => {
    const [first] = (await get(`/api/admin/conversations/${umaNew}/messages`)).json();
    expect(first).toMatchObject({
      content: 'Aphids everywhere!',
      imageUrl: 'https://media.example/aphids.jpg',
    });
  });

  it('follows showTestData', async () => {
    expect(
      (await get(`/api/admin/conversations/${tinaConv}/messages?showTestData=true`)).json(),
    ).toHaveLength(1);
    expect((await get(`/api/admin/conversations/${tinaConv}/messages?showTestData=false`)).json()).toEqual(
      [],
    );
    expect((await get(`/api/admin/conversations/${umaOld}/messages?showTestData=true`)).json()).toEqual([]);
  });

  it('answers [] for a conversation without messages, 404 for an unknown one and 400 for a malformed id', async () => {
    expect((await get(`/api/admin/conversations/${emptyConv}/messages`)).json()).toEqual([]);
    const missing = await get('/api/admin/conversations/6b1d3f0e-9a8c-4c1e-9f0a-1234567890ab/messages');
    expectStatusMessage(missing, 404, 'Conversation not found.');
    const malformed = await get('/api/admin/conversations/nope/messages');
    expectStatusMessage(malformed, 400, 'Conversation id must be a UUID');
    const badFlag = await get(`/api/admin/conversations/${umaOld}/messages?showTestData=2`);
    expectStatusMessage(badFlag, 400, 'showTestData: must be true or false');
  });
});

describe('GET /api/admin/messages/stats', () => {
  /** The cards computed plainly from the seeded list, at the time of the request. */
  const reference = (test: boolean, at: number) => {
    const mine = seeded.filter((m) => (m.test ?? false) === test);
    const dayAgo = at - DAY;
    const today = mine.filter((m) => m.at.getTime() >= todayStart.getTime()).length;
    const yesterday = mine.filter(
      (m) => m.at.getTime() >= yesterdayStart.getTime() && m.at.getTime() < dayAgo,
    ).length;
    const recent = mine.filter((m) => m.at.getTime() >= dayAgo);
    const inbound = recent.filter((m) => m.direction === 'inbound').length;
    const replies = recent.filter((m) => m.direction === 'outbound' && m.kind !== 'survey').length;
    return {
      totalMessages: mine.length,
      messagesToday: today,
      changePercent: yesterday > 0 ? Math.round(((today - yesterday) / yesterday) * 1000) / 10 : 0,
      responseRate: inbound > 0 ? Math.min(100, Math.round((replies / inbound) * 1000) / 10) : 0,
      failedMessages: mine.filter((m) => m.status === 'failed' || m.status === 'undelivered').length,
    };
  };

  it("answers real users' cards by default", async () => {
    const res = await get('/api/admin/messages/stats');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual(reference(false, Date.now()));
    // Whatever the time of day: 13 real messages, 2 of them failed; today's 4 include a survey.
    expect(body).toMatchObject({ totalMessages: 13, messagesToday: 4, failedMessages: 2 });
    // In the last 24 hours: 4 questions (2 today, 1 late yesterday, 1 five minutes inside), 2 replies.
    expect(body.responseRate).toBe(50);
    expect((await get('/api/admin/messages/stats?showTestData=false')).json()).toEqual(body);
  });

  it("answers test users' cards with showTestData=true", async () => {
    expect((await get('/api/admin/messages/stats?showTestData=true')).json()).toEqual({
      totalMessages: 1,
      messagesToday: 1,
      changePercent: 0,
      responseRate: 0,
      failedMessages: 0,
    });
  });

  it('follows status changes and deletions', async () => {
    await ds.query(`UPDATE messages SET status = 'delivered' WHERE id = $1`, [failedId]);
    expect((await get('/api/admin/messages/stats')).json().failedMessages).toBe(1);
    await ds.query(`UPDATE messages SET status = 'failed' WHERE id = $1`, [failedId]);
    expect((await get('/api/admin/messages/stats')).json().failedMessages).toBe(2);

    const extra = await addMessage(vic, vicConv, {
      at: todayAt(0.9),
      direction: 'outbound',
      status: 'failed',
    });
    expect((await get('/api/admin/messages/stats')).json()).toEqual(reference(false, Date.now()));
    await ds.query('DELETE FROM messages WHERE id = $1', [extra]);
    seeded.splice(
      seeded.findIndex((m) => m.id === extra),
      1,
    );
    expect((await get('/api/admin/messages/stats')).json()).toEqual(reference(false, Date.now()));
    const [{ count }] = await ds.query('SELECT count(*)::int AS count FROM messages WHERE NOT is_test_user');
    expect((await get('/api/admin/messages/stats')).json().totalMessages).toBe(count);
  });

  it('answers zeros when there are no messages', async () => {
    await ds.query('DELETE FROM messages WHERE is_test_user');
    expect((await get('/api/admin/messages/stats?showTestData=true')).json()).toEqual({
      totalMessages: 0,
      messagesToday: 0,
      changePercent: 0,
      responseRate: 0,
      failedMessages: 0,
    });
  });

  it('refuses a bad showTestData', async () => {
    const res = await get('/api/admin/messages/stats?showTestData=nope');
    expectStatusMessage(res, 400, 'showTestData: must be true or false');
  });
});
