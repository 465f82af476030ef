// Known figures for the admin dashboard's browser tests, written straight to the test database.
import { clearOfUtcMidnight } from '@sprout/testing';
import type { DataSource } from 'typeorm';
import { SEEDED_DAY_MARGIN_MS } from './seed-insight';

export const SEEDED = {
  real: { activeUsers: '2', messagesToday: '4', avgResponse: 'Avg response: 1,500ms', todaysCost: '$3.75' },
  test: { activeUsers: '1', messagesToday: '2', avgResponse: 'Avg response: 900ms', todaysCost: '$0.42' },
  signups: { total: 12, pending: 11 },
} as const;

interface SeedMessage {
  direction: 'inbound' | 'outbound';
  responseTimeMs?: number;
  cost?: number;
}

async function userWithMessagesToday(
  db: DataSource,
  phone: string,
  isTest: boolean,
  messages: SeedMessage[],
  at: Date,
): Promise<void> {
  // Times from the clock the app reads (the tests' process), not the database's.
  const [user] = await db.query<{ id: string }[]>(
    `INSERT INTO users (phone_number, is_test_user, test_user_name, zip_code, last_message_at)
     VALUES ($1, $2, $3, '97214', $4) RETURNING id`,
    [phone, isTest, isTest ? 'Test gardener' : null, at],
  );
  const [conversation] = await db.query<{ id: string }[]>(
    'INSERT INTO conversations (user_id, is_test_user, message_count) VALUES ($1, $2, $3) RETURNING id',
    [user?.id, isTest, messages.length],
  );
  for (const message of messages) {
    const [row] = await db.query<{ id: string }[]>(
      `INSERT INTO messages (user_id, conversation_id, direction, content, status, response_time_ms, cost, is_test_user, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        user?.id,
        conversation?.id,
        message.direction,
        message.direction === 'inbound'
          ? 'When should I plant tomatoes?'
          : 'After your last frost, around May 1.',
        message.direction === 'inbound' ? 'received' : 'delivered',
        message.responseTimeMs ?? null,
        message.cost ?? 0,
        isTest,
        at,
      ],
    );
    if (message.cost !== undefined) {
      await db.query(
        `INSERT INTO llm_calls (message_id, user_id, conversation_id, purpose, model, total_tokens, cost, tier, is_test_user, created_at)
         VALUES ($1, $2, $3, 'reply', 'gpt-4o-mini', 420, $4, 'primary', $5, $6)`,
        [row?.id, user?.id, conversation?.id, message.cost, isTest, at],
      );
    }
  }
}

/**
 * Two real users and one test user texting today, and twelve beta signups (one approved). Waits
 * first until the UTC day has SEEDED_DAY_MARGIN_MS left, so "today" lasts as long as the test file.
 */
export async function seedDashboard(db: DataSource): Promise<void> {
  const now = await clearOfUtcMidnight(SEEDED_DAY_MARGIN_MS);
  // Each texted once today and got a reply taking this long and costing this much.
  const texters: Array<[phone: string, isTest: boolean, responseTimeMs: number, cost: number]> = [
    ['+15035550101', false, 1200, 1.25],
    ['+15035550102', false, 1800, 2.5],
    ['+15035550199', true, 900, 0.42],
  ];
  for (const [phone, isTest, responseTimeMs, cost] of texters) {
    await userWithMessagesToday(
      db,
      phone,
      isTest,
      [{ direction: 'inbound' }, { direction: 'outbound', responseTimeMs, cost }],
      now,
    );
  }
  for (let n = 1; n <= SEEDED.signups.total; n += 1) {
    await db.query(
      `INSERT INTO beta_signups (email, zip_code, unique_code, signup_date, status)
       VALUES ($1, $2, $3, now() - make_interval(days => $4), $5)`,
      [
        `signup${n}@example.com`,
        String(94100 + n),
        `SPROUT-${String(n).padStart(4, '0')}`,
        SEEDED.signups.total - n,
        n === 1 ? 'approved' : 'pending',
      ],
    );
  }
}
