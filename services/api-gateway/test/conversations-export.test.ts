// GET /api/admin/conversations/export and /api/admin/users/{id}/conversations/export: CSV streamed
// through a cursor (more rows than one fetch batch), the list's search and test-data choice, the
// admin in the log, phone numbers masked there.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseCsv, useClosable } from '@sprout/testing';
import type { DataSource } from 'typeorm';
import { EXPORT_BATCH_ROWS, csvField } from '../src/common/csv-export';
import { captureCsvExportLogs, expectCsvAttachment, type LoggedExport } from './support/csv-log';
import { ADMIN_USERNAME, startSignedIn } from './support/gateway';
import { insertUser } from './support/seed';

const gw = useClosable(() => startSignedIn());
let app: NestFastifyApplication;
let ds: DataSource;
let cookie: string;
let logged: LoggedExport[];

const MANY = EXPORT_BATCH_ROWS * 2 + 7;
let rosa: string;
let rosaConversations: string[];

beforeAll(async () => {
  ({ app, ds, cookie } = gw);
  logged = captureCsvExportLogs(app);

  // Many real users with one conversation each, about tomatoes, newest last.
  await ds.query(
    `WITH u AS (
       INSERT INTO users (phone_number) SELECT '+1971555' || lpad(n::text, 4, '0') FROM generate_series(1, $1) n
       RETURNING id, phone_number)
     INSERT INTO conversations (user_id, started_at, last_message_at, message_count, topics, summary, region)
     SELECT id, now() - interval '2 days', now() - (right(phone_number, 4)::int * interval '1 minute'), 2,
            ARRAY['tomatoes'], 'Tomato blight, "early"', 'Pacific Northwest'
       FROM u`,
    [MANY],
  );
  rosa = await insertUser(ds, '+15035550123');
  rosaConversations = [];
  for (const [i, summary] of ['=HYPERLINK("x") roses', 'Roses, part two'].entries()) {
    const [c]: Array<{ id: string }> = await ds.query(
      `INSERT INTO conversations (user_id, started_at, last_message_at, message_count, topics, summary, region)
       VALUES ($1, now() - $2 * interval '1 hour', now() - $2 * interval '1 hour', 2, ARRAY['roses'], $3, 'Southwest')
       RETURNING id`,
      [rosa, 10 - i, summary],
    );
    if (c === undefined) throw new Error('no row');
    rosaConversations.push(c.id);
    await ds.query(
      `INSERT INTO messages (user_id, conversation_id, direction, kind, content, status, cost, token_usage, created_at)
       VALUES ($1, $2, 'inbound', 'reply', $3, 'received', 0, 0, now() - $4 * interval '1 hour'),
              ($1, $2, 'outbound', 'reply', 'Prune them,
then feed', 'delivered', 0.0012, 40, now() - $4 * interval '1 hour' + interval '1 second')`,
      [rosa, c.id, `Roses ${i}?`, 10 - i],
    );
  }
  const tess = await insertUser(ds, '+15550000001', true);
  await ds.query(
    `INSERT INTO conversations (user_id, is_test_user, started_at, last_message_at, summary)
     VALUES ($1, true, now(), now(), 'Test tomatoes')`,
    [tess],
  );
}, 120_000);

const get = (url: string, withCookie = true) =>
  app.inject({ method: 'GET', url, headers: withCookie ? { cookie } : {} });

describe('conversations list export', () => {
  it('streams every real conversation, newest activity first, as a CSV attachment', async () => {
    logged.length = 0;
    const res = await get('/api/admin/conversations/export');
    expectCsvAttachment(res, /^attachment; filename="conversations-real-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual([
      'conversation_id',
      'user_id',
      'phone_number',
      'user_active',
      'message_count',
      'start_time',
      'end_time',
      'last_message_at',
      'sentiment',
      'topics',
      'region',
      'experience_level',
      'model_used',
      'summary',
    ]);
    expect(rows).toHaveLength(MANY + 2);
    expect(rows[0]?.[2]).toBe('+19715550001');
    expect(rows[0]?.[13]).toBe('Tomato blight, "early"');
    const times = rows.map((r) => Date.parse(r[7] ?? ''));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // A summary that looks like a spreadsheet formula is written as text.
    expect(rows.find((r) => r[1] === rosa && r[13]?.includes('HYPERLINK'))?.[13]).toBe(
      `'=HYPERLINK("x") roses`,
    );
    expect(rows.some((r) => r[13] === 'Test tomatoes')).toBe(false);

    expect(logged.map((l) => l.message)).toEqual(['CSV export started', 'CSV export finished']);
    expect(logged[1]?.fields).toMatchObject({
      admin: ADMIN_USERNAME,
      export: 'conversations',
      rows: MANY + 2,
    });
  });

  it('applies the search (words or phone digits) and the test-data choice, masking the phone in the log', async () => {
    logged.length = 0;
    const byPhone = parseCsv((await get('/api/admin/conversations/export?search=%2B1503555')).body).slice(1);
    expect(byPhone.map((r) => r[0]).sort()).toEqual([...rosaConversations].sort());
    expect(JSON.stringify(logged)).not.toContain('+1503555');
    expect(logged[0]?.fields).toMatchObject({
      admin: ADMIN_USERNAME,
      search: expect.stringContaining('***'),
    });

    const words = parseCsv((await get('/api/admin/conversations/export?search=part%20ROSES')).body).slice(1);
    expect(words.map((r) => r[0])).toEqual([rosaConversations[1]]);

    const test = await get('/api/admin/conversations/export?showTestData=true');
    expect(test.headers['content-disposition']).toContain('conversations-test-');
    expect(
      parseCsv(test.body)
        .slice(1)
        .map((r) => r[13]),
    ).toEqual(['Test tomatoes']);
  });

  it('is for admins only and checks its query', async () => {
    expect((await get('/api/admin/conversations/export', false)).statusCode).toBe(401);
    const bad = await get('/api/admin/conversations/export?showTestData=maybe');
    expect(bad.statusCode).toBe(400);
  });
});

describe("a user's conversations export", () => {
  it('has one line per message with its conversation, oldest first', async () => {
    logged.length = 0;
    const res = await get(`/api/admin/users/${rosa}/conversations/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`user-${rosa}-conversations-`);
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual([
      'conversation_id',
      'conversation_start_time',
      'conversation_end_time',
      'conversation_summary',
      'phone_number',
      'message_id',
      'created_at',
      'direction',
      'status',
      'content',
      'cost',
      'token_usage',
      'model_used',
    ]);
    expect(rows.map((r) => [r[0], r[7], r[9]])).toEqual([
      [rosaConversations[0], 'inbound', 'Roses 0?'],
      [rosaConversations[0], 'outbound', 'Prune them,\nthen feed'],
      [rosaConversations[1], 'inbound', 'Roses 1?'],
      [rosaConversations[1], 'outbound', 'Prune them,\nthen feed'],
    ]);
    expect(rows[1]?.[4]).toBe('+15035550123');
    expect(logged[1]?.fields).toMatchObject({
      admin: ADMIN_USERNAME,
      export: 'user-conversations',
      userId: rosa,
      rows: 4,
    });
  });

  it('answers 404 for no such user and 400 for a bad id', async () => {
    expect(
      (await get('/api/admin/users/0b7b1c5e-2f0a-4a51-9f61-4b1d3a2f9e10/conversations/export')).statusCode,
    ).toBe(404);
    expect((await get('/api/admin/users/nope/conversations/export')).statusCode).toBe(400);
  });
});

describe('csvField', () => {
  it('quotes what needs quoting and guards formulas in text', () => {
    expect(csvField(null)).toBe('');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('+15035550123')).toBe('+15035550123');
    expect(csvField('@SUM(A1)', true)).toBe("'@SUM(A1)");
    expect(csvField(['a', 'b'], true)).toBe('a; b');
  });
});
