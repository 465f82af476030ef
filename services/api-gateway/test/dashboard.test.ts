import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { clearOfUtcMidnight, useClosable } from '@sprout/testing';
import type { DataSource } from 'typeorm';
import { startOfUtcDay } from '../src/dashboard/dashboard.service';
import { startSignedIn, expectStatusMessage } from './support/gateway';
import { insertConversation, insertUser } from './support/seed';

const gw = useClosable(() => startSignedIn());
let app: NestFastifyApplication;
let cookie: string;

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

interface SeedMessage {
  at: Date;
  direction: 'inbound' | 'outbound';
  responseTimeMs?: number;
}

const seedUser = async (
  ds: DataSource,
  phone: string,
  isTestUser: boolean,
  messages: SeedMessage[],
  llmCosts: Array<{ at: Date; cost: number }> = [],
): Promise<void> => {
  const userId = await insertUser(ds, phone, isTestUser);
  const conversationId = await insertConversation(ds, userId, isTestUser);
  for (const m of messages) {
    await ds.query(
      `INSERT INTO messages (user_id, conversation_id, direction, content, status, response_time_ms, is_test_user, created_at)
       VALUES ($1, $2, $3, 'hello', $4, $5, $6, $7)`,
      [
        userId,
        conversationId,
        m.direction,
        m.direction === 'inbound' ? 'received' : 'delivered',
        m.responseTimeMs ?? null,
        isTestUser,
        m.at,
      ],
    );
  }
  // As the SMS pipeline does, the user's last message time follows their messages.
  await ds.query(
    'UPDATE users SET last_message_at = (SELECT max(created_at) FROM messages WHERE user_id = $1) WHERE id = $1',
    [userId],
  );
  for (const call of llmCosts) {
    await ds.query(
      `INSERT INTO llm_calls (user_id, purpose, model, cost, tier, is_test_user, created_at)
       VALUES ($1, 'reply', 'gpt-4o-mini', $2, 'primary', $3, $4)`,
      [userId, call.cost, isTestUser, call.at],
    );
  }
};

beforeAll(async () => {
  ({ app, cookie } = gw);

  // The UTC day must not end while the test runs ("today" would change under it).
  const now = await clearOfUtcMidnight(3 * MINUTE);
  const todayStart = startOfUtcDay(now);
  // "Today" rows sit between midnight UTC and now, whenever the test runs.
  const today = (fraction: number) =>
    new Date(todayStart.getTime() + (now.getTime() - todayStart.getTime()) * fraction);
  // Within the last 24 hours but before today, at any hour: halfway between a day ago and midnight
  // (at least 1.5 minutes inside the window, since midnight is at least 3 minutes away).
  const yesterdayEvening = new Date((now.getTime() - 24 * HOUR + todayStart.getTime()) / 2);
  const lastWeek = new Date(now.getTime() - 7 * 24 * HOUR);
  const ds = gw.db.dataSource;

  // Real users.
  await seedUser(
    ds,
    '+15035550101',
    false,
    [
      { at: today(0.2), direction: 'inbound' },
      { at: today(0.3), direction: 'outbound', responseTimeMs: 1000 },
      { at: today(0.5), direction: 'inbound' },
      { at: today(0.6), direction: 'outbound', responseTimeMs: 2001 },
    ],
    [
      { at: today(0.3), cost: 0.0125 },
      { at: today(0.6), cost: 0.0075 },
      { at: yesterdayEvening, cost: 5 },
    ],
  );
  await seedUser(ds, '+15035550102', false, [
    { at: yesterdayEvening, direction: 'inbound' },
    { at: yesterdayEvening, direction: 'outbound', responseTimeMs: 99_999 },
  ]);
  await seedUser(
    ds,
    '+15035550103',
    false,
    [{ at: lastWeek, direction: 'inbound' }],
    [{ at: lastWeek, cost: 3 }],
  );

  // Test users.
  await seedUser(
    ds,
    '+15035550901',
    true,
    [
      { at: today(0.4), direction: 'inbound' },
      { at: today(0.45), direction: 'outbound', responseTimeMs: 500 },
    ],
    [{ at: today(0.45), cost: 1.5 }],
  );

  // SMS sent today (two buckets, two shards) and yesterday evening, as sms-gateway records them.
  await ds.query(
    `INSERT INTO sms_spend_buckets (bucket, shard, cost, segments, messages) VALUES
       (date_bin('15 minutes', $1::timestamptz, TIMESTAMPTZ '2000-01-01'), 0, 0.0166, 2, 1),
       (date_bin('15 minutes', $1::timestamptz, TIMESTAMPTZ '2000-01-01'), 3, 0.0083, 1, 1),
       (date_bin('15 minutes', $2::timestamptz, TIMESTAMPTZ '2000-01-01'), 5, 0.0249, 3, 1),
       (date_bin('15 minutes', $3::timestamptz, TIMESTAMPTZ '2000-01-01'), 0, 7, 800, 300)`,
    [today(0.3), today(0.6), yesterdayEvening],
  );

  await ds.query(
    `INSERT INTO beta_signups (email, zip_code, unique_code, status) VALUES
      ('a@example.com', '97201', 'SPROUT-AAAAAA', 'pending'),
      ('b@example.com', '97202', 'SPROUT-BBBBBB', 'approved'),
      ('c@example.com', '97203', 'SPROUT-CCCCCC', 'pending')`,
  );
}, 5 * MINUTE);

const metrics = (query = '') =>
  app.inject({ method: 'GET', url: `/api/dashboard/metrics${query}`, headers: { cookie } });

describe('GET /api/dashboard/metrics', () => {
  it("shows real users' data by default", async () => {
    const res = await metrics();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      activeUsers: 2, // last message in the last 24 hours (one of them only yesterday evening)
      messagesToday: 4,
      avgResponseTime: 1501, // (1000 + 2001) / 2, rounded; yesterday's reply is not today's
      todaysCost: 0.02,
      todaysSmsCost: 0.0498,
      betaSignups: { total: 3, pending: 2 },
    });
  });

  it('shows the same with showTestData=false', async () => {
    expect((await metrics('?showTestData=false')).json()).toEqual((await metrics()).json());
  });

  it("shows only test users' data with showTestData=true", async () => {
    const res = await metrics('?showTestData=true');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      activeUsers: 1,
      messagesToday: 2,
      avgResponseTime: 500,
      todaysCost: 1.5,
      todaysSmsCost: 0, // test users' messages are never sent
      betaSignups: { total: 3, pending: 2 },
    });
  });

  it('answers zeros, not nulls, when nothing happened today', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/dashboard/metrics?showTestData=true',
      headers: { cookie },
    });
    const body = res.json();
    const keys = ['activeUsers', 'messagesToday', 'avgResponseTime', 'todaysCost'];
    for (const key of keys) expect(typeof body[key]).toBe('number');
    // The test user goes, with their conversations and messages.
    await gw.ds.query('DELETE FROM users WHERE is_test_user');
    await gw.ds.query('DELETE FROM llm_calls WHERE is_test_user');
    const zeros = Object.fromEntries(keys.map((key) => [key, 0]));
    expect((await metrics('?showTestData=true')).json()).toMatchObject(zeros);
  });

  it('rejects a malformed query with 400', async () => {
    const res = await metrics('?showTestData=true&showTestData=false');
    expect(res.statusCode).toBe(400);
  });

  it('needs a session', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/dashboard/metrics' });
    expectStatusMessage(res, 401, 'Authentication required');
  });
});

describe('startOfUtcDay', () => {
  it('is midnight UTC of the same UTC day', () => {
    expect(startOfUtcDay(new Date('2025-03-09T23:59:59.999Z')).toISOString()).toBe(
      '2025-03-09T00:00:00.000Z',
    );
    expect(startOfUtcDay(new Date('2025-03-10T00:00:00.000Z')).toISOString()).toBe(
      '2025-03-10T00:00:00.000Z',
    );
  });
});
