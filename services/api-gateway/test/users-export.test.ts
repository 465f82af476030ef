// GET /api/admin/users/export: every user the Users table lists (its search, test-data choice,
// sort and order) as CSV streamed through a cursor, with a header row and formula-safe text.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { USER_EXPORT_COLUMNS } from '@sprout/contracts';
import { parseCsv, useClosable } from '@sprout/testing';
import type { DataSource } from 'typeorm';
import { EXPORT_BATCH_ROWS } from '../src/common/csv-export';
import { captureCsvExportLogs, expectCsvAttachment, type LoggedExport } from './support/csv-log';
import { ADMIN_USERNAME, startSignedIn } from './support/gateway';

const gw = useClosable(() => startSignedIn());
let app: NestFastifyApplication;
let ds: DataSource;
let cookie: string;
let logged: LoggedExport[];

/** More users than one fetch batch: the export goes through the cursor more than once. */
const MANY = EXPORT_BATCH_ROWS + 3;
const HOUR_MS = 60 * 60 * 1000;

const addUser = async (fields: {
  phone: string;
  test?: boolean;
  testName?: string | null;
  region?: string | null;
  profile?: Record<string, unknown>;
  zip?: string | null;
  messages?: number;
  cost?: number;
  sentiment?: string | null;
  lastMessageHoursAgo?: number | null;
  active?: boolean;
}): Promise<string> => {
  const [row]: Array<{ id: string }> = await ds.query(
    `INSERT INTO users (phone_number, is_test_user, test_user_name, region, profile, zip_code, total_messages,
       total_cost, average_sentiment, last_message_at, is_active, profile_completion_score)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 40) RETURNING id`,
    [
      fields.phone,
      fields.test ?? false,
      fields.testName ?? null,
      fields.region ?? null,
      JSON.stringify(fields.profile ?? {}),
      fields.zip ?? null,
      fields.messages ?? 0,
      fields.cost ?? 0,
      fields.sentiment ?? null,
      fields.lastMessageHoursAgo == null ? null : new Date(Date.now() - fields.lastMessageHoursAgo * HOUR_MS),
      fields.active ?? true,
    ],
  );
  if (row === undefined) throw new Error('no row');
  return row.id;
};

let rosa: string;

beforeAll(async () => {
  ({ app, ds, cookie } = gw);
  logged = captureCsvExportLogs(app);

  rosa = await addUser({
    phone: '+15035550123',
    region: 'Pacific Northwest',
    profile: { region: '=HYPERLINK("http://x","Portland")' },
    zip: '97201',
    messages: 25,
    cost: 1.5,
    sentiment: 'frustrated',
    lastMessageHoursAgo: 1,
  });
  await addUser({ phone: '+12125550124', region: 'Northeast', messages: 7, lastMessageHoursAgo: 2 });
  await addUser({ phone: '+14105550125', messages: 1, lastMessageHoursAgo: null });
  await addUser({ phone: '+15005550126', test: true, testName: '@SUM(A1) Tess', messages: 3 });
  // Many quiet users who never wrote (last in the default order), by phone.
  await ds.query(
    `INSERT INTO users (phone_number, created_at)
     SELECT '+1971555' || lpad(n::text, 4, '0'), now() - interval '3 days' FROM generate_series(1, $1) n`,
    [MANY],
  );
}, 120_000);

const get = (url: string, withCookie = true) =>
  app.inject({ method: 'GET', url, headers: withCookie ? { cookie } : {} });

/** The CSV's header and its lines as objects by column. */
const rowsOf = (body: string) => {
  const [header, ...lines] = parseCsv(body);
  return {
    header,
    rows: lines.map((line) => Object.fromEntries((header ?? []).map((name, i) => [name, line[i] ?? '']))),
  };
};

it('is for admins only', async () => {
  expect((await get('/api/admin/users/export', false)).statusCode).toBe(401);
});

it("streams every real user in the table's default order, with a header row, as a CSV attachment", async () => {
  logged.length = 0;
  const res = await get('/api/admin/users/export');
  expectCsvAttachment(res, /^attachment; filename="users-real-\d{4}-\d{2}-\d{2}\.csv"$/);
  const { header, rows } = rowsOf(res.body);
  expect(header).toEqual([...USER_EXPORT_COLUMNS]);
  expect(rows).toHaveLength(MANY + 3);
  // Last message newest first; those who never wrote last.
  expect(rows.slice(0, 2).map((r) => r.phone_number)).toEqual(['+15035550123', '+12125550124']);
  expect(rows.slice(2).every((r) => r.last_message_at === '')).toBe(true);
  expect(rows[0]).toMatchObject({
    user_id: rosa,
    test_user_name: '',
    // The region the table shows (the learned one), guarded against spreadsheet formulas.
    region: `'=HYPERLINK("http://x","Portland")`,
    zip_code: '97201',
    status: 'Active',
    total_messages: '25',
    engagement: 'High',
    sentiment: 'frustrated',
    profile_completion: '40',
  });
  expect(Number(rows[0]?.total_cost)).toBe(1.5);
  expect(Date.parse(rows[0]?.joined_at ?? '')).not.toBeNaN();
  expect(rows.find((r) => r.phone_number === '+14105550125')).toMatchObject({
    engagement: 'Low',
    // No label counts as neutral, as on screen.
    sentiment: 'neutral',
  });
  expect(res.body).not.toContain('+15005550126');
  expect(logged.map((l) => l.message)).toEqual(['CSV export started', 'CSV export finished']);
  expect(logged[1]?.fields).toMatchObject({ admin: ADMIN_USERNAME, export: 'users', rows: MANY + 3 });
});

it('follows the sort and order, and the phone search', async () => {
  const sorted = rowsOf((await get('/api/admin/users/export?sort=totalMessages&order=desc')).body).rows;
  expect(sorted.slice(0, 3).map((r) => r.total_messages)).toEqual(['25', '7', '1']);

  logged.length = 0;
  const searched = await get(`/api/admin/users/export?search=${encodeURIComponent('+1 (212)')}`);
  expect(rowsOf(searched.body).rows.map((r) => r.phone_number)).toEqual(['+12125550124']);
  // The log keeps only the start of a phone search.
  expect(logged[0]?.fields).toMatchObject({ search: '+1 (***' });

  // Text that cannot be part of a phone number matches nobody: the header alone.
  const none = await get('/api/admin/users/export?search=roses');
  expect(none.statusCode).toBe(200);
  expect(rowsOf(none.body)).toEqual({ header: [...USER_EXPORT_COLUMNS], rows: [] });
});

it('lists test users only with showTestUsers=true, their names formula-safe', async () => {
  const res = await get('/api/admin/users/export?showTestUsers=true');
  expect(res.headers['content-disposition']).toMatch(/filename="users-test-/);
  const { rows } = rowsOf(res.body);
  expect(rows.map((r) => [r.phone_number, r.test_user_name])).toEqual([['+15005550126', "'@SUM(A1) Tess"]]);
});

it('refuses a sort or order the table does not have', async () => {
  expect((await get('/api/admin/users/export?sort=password')).statusCode).toBe(400);
  expect((await get('/api/admin/users/export?order=sideways')).statusCode).toBe(400);
});
