import type { DataSource } from 'typeorm';
import type { MessageMedia } from '../types';

// The simulator's test users: listing, creating and deleting them, and reading their conversation.

export interface TestUserRow {
  id: string;
  phone_number: string;
  test_user_name: string | null;
  test_user_model: string | null;
  is_active: boolean;
  created_at: Date;
  total_messages: number;
}

export interface UserProfileRow {
  region: string | null;
  profile: Record<string, unknown> | null;
}

export interface SimulatorMessageRow {
  id: string;
  direction: 'inbound' | 'outbound';
  content: string;
  media: MessageMedia[] | null;
  image_analysis: string | null;
  created_at: Date;
  token_usage: number;
  cost: string | number;
}

export interface TestUserTotalsRow {
  total_messages: string;
  total_tokens: string;
  total_cost: string;
  replies: string;
}

export interface TestUserModelUsageRow {
  model_used: string;
  message_count: string;
  total_tokens: string;
  total_cost: string;
}

/** The columns of a message as the simulator shows it. */
export const SIMULATOR_MESSAGE_COLUMNS =
  'id, direction, content, media, image_analysis, created_at, token_usage, cost';

// total_messages is the user's counter, kept by the message writer with every message recorded.
const TEST_USER_COLUMNS = `u.id, u.phone_number, u.test_user_name, u.test_user_model, u.is_active, u.created_at,
  u.total_messages`;

/** Whether the user of this number is a test user; undefined when nobody has it. */
export async function userIsTestUser(
  dataSource: DataSource,
  phoneNumber: string,
): Promise<boolean | undefined> {
  const [existing] = await dataSource.query<{ is_test_user: boolean }[]>(
    'SELECT is_test_user FROM users WHERE phone_number = $1',
    [phoneNumber],
  );
  return existing?.is_test_user;
}

/** Every test user, newest first. */
export async function testUsers(dataSource: DataSource): Promise<TestUserRow[]> {
  return dataSource.query(
    `SELECT ${TEST_USER_COLUMNS} FROM users u WHERE u.is_test_user ORDER BY u.created_at DESC, u.id DESC`,
  );
}

/** The test user with this id, or undefined (also for real users). */
export async function testUserById(dataSource: DataSource, id: string): Promise<TestUserRow | undefined> {
  const rows: TestUserRow[] = await dataSource.query(
    `SELECT ${TEST_USER_COLUMNS} FROM users u WHERE u.id = $1 AND u.is_test_user`,
    [id],
  );
  return rows[0];
}

/** Creates a test user on this number; undefined when the number is taken. */
export async function insertTestUser(
  dataSource: DataSource,
  phoneNumber: string,
  testUserName: string,
  testUserModel: string | null,
): Promise<{ id: string; test_user_name: string } | undefined> {
  const inserted: { id: string; test_user_name: string }[] = await dataSource.query(
    `INSERT INTO users (phone_number, is_test_user, test_user_name, test_user_model)
         VALUES ($1, true, $2, $3) ON CONFLICT (phone_number) DO NOTHING RETURNING id, test_user_name`,
    [phoneNumber, testUserName, testUserModel],
  );
  return inserted[0];
}

/** A number `prefix` + 4 digits (slots 0 .. slots - 1) nobody has, picked at random; null when all are taken. */
export async function freeTestUserPhone(
  dataSource: DataSource,
  prefix: string,
  slots: number,
): Promise<string | null> {
  const rows: { phone: string }[] = await dataSource.query(
    `SELECT $1 || lpad(slot::text, 4, '0') AS phone FROM generate_series(0, $2::int - 1) AS slot
       WHERE NOT EXISTS (SELECT 1 FROM users WHERE phone_number = $1 || lpad(slot::text, 4, '0'))
       ORDER BY random() LIMIT 1`,
    [prefix, slots],
  );
  return rows[0]?.phone ?? null;
}

/** Deletes a test user with their conversations and messages (cascade); false when there is no such test user. */
export async function deleteTestUser(dataSource: DataSource, id: string): Promise<boolean> {
  const result: [unknown[], number] = await dataSource.query(
    'DELETE FROM users WHERE id = $1 AND is_test_user RETURNING id',
    [id],
  );
  return result[1] !== 0;
}

/** The user's newest `limit` messages, oldest first. */
export async function newestUserMessages(
  dataSource: DataSource,
  userId: string,
  limit: number,
): Promise<SimulatorMessageRow[]> {
  // A reply is recorded strictly after the message it answers; rows written before that rule
  // may share a timestamp, and then the question still comes first.
  return dataSource.query(
    `SELECT * FROM (
         SELECT ${SIMULATOR_MESSAGE_COLUMNS} FROM messages WHERE user_id = $1
         ORDER BY created_at DESC, (direction = 'outbound') DESC, id DESC LIMIT $2
       ) newest ORDER BY created_at, (direction = 'outbound'), id`,
    [userId, limit],
  );
}

/** The user's message totals and, per model, the replies it wrote (most used first). */
export async function userMessageTotals(
  dataSource: DataSource,
  userId: string,
): Promise<{ totals: TestUserTotalsRow | undefined; usage: TestUserModelUsageRow[] }> {
  const [totalsRows, usage] = await Promise.all([
    dataSource.query<TestUserTotalsRow[]>(
      `SELECT count(*) AS total_messages, coalesce(sum(token_usage), 0) AS total_tokens,
                coalesce(sum(cost), 0) AS total_cost,
                count(*) FILTER (WHERE direction = 'outbound') AS replies
         FROM messages WHERE user_id = $1`,
      [userId],
    ),
    dataSource.query<TestUserModelUsageRow[]>(
      `SELECT model_used, count(*) AS message_count, coalesce(sum(token_usage), 0) AS total_tokens,
                coalesce(sum(cost), 0) AS total_cost
         FROM messages WHERE user_id = $1 AND direction = 'outbound' AND model_used IS NOT NULL
         GROUP BY model_used ORDER BY count(*) DESC, sum(token_usage) DESC, model_used`,
      [userId],
    ),
  ]);
  return { totals: totalsRows[0], usage };
}

/** The user's recorded region and learned profile; undefined when there is no such user. */
export async function userProfile(
  dataSource: DataSource,
  userId: string,
): Promise<UserProfileRow | undefined> {
  const rows: UserProfileRow[] = await dataSource.query('SELECT region, profile FROM users WHERE id = $1', [
    userId,
  ]);
  return rows[0];
}
