import { randomInt } from 'node:crypto';
import { Injectable, InternalServerErrorException, NotFoundException } from '@nestjs/common';
import type {
  CreateTestUserResponse,
  SimulatorAnalytics,
  SimulatorConversationResponse,
  SimulatorMessage,
  SimulatorModelUsage,
  TestUserDto,
  UserProfileDto,
} from '@sprout/contracts';
import type { MessageMedia } from '@sprout/domain';
import { DataSource } from 'typeorm';

/**
 * Test users get numbers in +1 555 010-0000 .. +1 555 010-9999: area code 555 is not assigned to
 * any real subscriber, so a simulated user can never be mistaken for (or texted as) a real one.
 */
const TEST_USER_PHONE_PREFIX = '+1555010';
const TEST_USER_PHONE_SLOTS = 10_000;
const RANDOM_PHONE_ATTEMPTS = 8;

const testUserPhone = (slot: number): string => `${TEST_USER_PHONE_PREFIX}${String(slot).padStart(4, '0')}`;

/** The conversation view shows at most this many of the newest messages. */
const CONVERSATION_MESSAGE_LIMIT = 500;

export const TEST_USER_NOT_FOUND = 'Test user not found.';

interface TestUserRow {
  id: string;
  phone_number: string;
  test_user_name: string | null;
  test_user_model: string | null;
  is_active: boolean;
  created_at: Date;
  total_messages: number;
}

interface ProfileRow {
  region: string | null;
  profile: Record<string, unknown> | null;
}

interface MessageRow {
  id: string;
  direction: 'inbound' | 'outbound';
  content: string;
  media: MessageMedia[] | null;
  image_analysis: string | null;
  created_at: Date;
  token_usage: number;
  cost: string | number;
}

interface TotalsRow {
  total_messages: string;
  total_tokens: string;
  total_cost: string;
  replies: string;
}

interface ModelUsageRow {
  model_used: string;
  message_count: string;
  total_tokens: string;
  total_cost: string;
}

// total_messages is the user's counter, kept by the message writer with every message recorded.
const TEST_USER_COLUMNS = `u.id, u.phone_number, u.test_user_name, u.test_user_model, u.is_active, u.created_at,
  u.total_messages`;

/** A test user made outside the simulator may have no name: it is then named by its number. */
const nameOf = (row: Pick<TestUserRow, 'test_user_name' | 'phone_number'>): string =>
  row.test_user_name?.trim() || `Test user ${row.phone_number.slice(-4)}`;

const toTestUser = (row: TestUserRow): TestUserDto => ({
  id: row.id,
  testUserName: nameOf(row),
  testUserModel: row.test_user_model,
  totalMessages: Number(row.total_messages),
  isActive: row.is_active,
  phoneNumber: row.phone_number,
  createdAt: row.created_at.toISOString(),
});

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

const profileOf = (row: ProfileRow): UserProfileDto => {
  const profile = row.profile ?? {};
  const preferences = profile.preferences;
  return {
    region: text(profile.region) ?? row.region,
    growingContext: text(profile.growingContext),
    preferences: Array.isArray(preferences)
      ? preferences.filter((p): p is string => typeof p === 'string' && p.trim() !== '')
      : text(preferences) === null
        ? []
        : [String(preferences)],
    conversationStyle: text(profile.conversationStyle),
  };
};

/** A stored message as the simulator shows it; the first attachment is its image. */
export const toSimulatorMessage = (row: MessageRow): SimulatorMessage => ({
  id: row.id,
  direction: row.direction,
  content: row.content,
  imageUrl: row.media?.[0]?.url ?? null,
  imageAnalysis: row.image_analysis,
  createdAt: row.created_at.toISOString(),
  tokenUsage: row.token_usage,
  cost: Number(row.cost),
});

export const SIMULATOR_MESSAGE_COLUMNS =
  'id, direction, content, media, image_analysis, created_at, token_usage, cost';
export type SimulatorMessageRow = MessageRow;

/** The simulator's test users: listing, creating and deleting them, and reading their conversation. */
@Injectable()
export class TestUsersService {
  constructor(private readonly dataSource: DataSource) {}

  /** Every test user, newest first, with the number of messages they exchanged. */
  async list(): Promise<TestUserDto[]> {
    const rows: TestUserRow[] = await this.dataSource.query(
      `SELECT ${TEST_USER_COLUMNS} FROM users u WHERE u.is_test_user ORDER BY u.created_at DESC, u.id DESC`,
    );
    return rows.map(toTestUser);
  }

  /** The test user with this id, or null (also for real users: the simulator never shows them). */
  async find(id: string): Promise<TestUserDto | null> {
    const rows: TestUserRow[] = await this.dataSource.query(
      `SELECT ${TEST_USER_COLUMNS} FROM users u WHERE u.id = $1 AND u.is_test_user`,
      [id],
    );
    const row = rows[0];
    return row === undefined ? null : toTestUser(row);
  }

  /**
   * Creates a test user on a free number of the reserved range. A random slot first (cheap, and
   * concurrent creations rarely collide), then the first free slot in a random order.
   */
  async create(testUserName: string, testUserModel: string | null): Promise<CreateTestUserResponse> {
    for (let attempt = 0; attempt <= RANDOM_PHONE_ATTEMPTS; attempt++) {
      const phone =
        attempt < RANDOM_PHONE_ATTEMPTS
          ? testUserPhone(randomInt(TEST_USER_PHONE_SLOTS))
          : await this.freePhone();
      if (phone === null) break;
      const inserted: { id: string; test_user_name: string }[] = await this.dataSource.query(
        `INSERT INTO users (phone_number, is_test_user, test_user_name, test_user_model)
         VALUES ($1, true, $2, $3) ON CONFLICT (phone_number) DO NOTHING RETURNING id, test_user_name`,
        [phone, testUserName, testUserModel],
      );
      const row = inserted[0];
      if (row !== undefined) return { id: row.id, testUserName: row.test_user_name };
    }
    throw new InternalServerErrorException('Every test user number is taken: delete some test users first.');
  }

  private async freePhone(): Promise<string | null> {
    const rows: { phone: string }[] = await this.dataSource.query(
      `SELECT $1 || lpad(slot::text, 4, '0') AS phone FROM generate_series(0, $2::int - 1) AS slot
       WHERE NOT EXISTS (SELECT 1 FROM users WHERE phone_number = $1 || lpad(slot::text, 4, '0'))
       ORDER BY random() LIMIT 1`,
      [TEST_USER_PHONE_PREFIX, TEST_USER_PHONE_SLOTS],
    );
    return rows[0]?.phone ?? null;
  }

  /** Deletes a test user with their conversations and messages (cascade). Real users are never deleted here. */
  async delete(id: string): Promise<void> {
    const result: [unknown[], number] = await this.dataSource.query(
      'DELETE FROM users WHERE id = $1 AND is_test_user RETURNING id',
      [id],
    );
    if (result[1] === 0) throw new NotFoundException(TEST_USER_NOT_FOUND);
  }

  /** The test user's newest messages (oldest first), analytics over all of them, and their profile. */
  async conversation(id: string): Promise<SimulatorConversationResponse> {
    const user = await this.find(id);
    if (user === null) throw new NotFoundException(TEST_USER_NOT_FOUND);
    const [messages, analytics, profile] = await Promise.all([
      this.messages(id),
      this.analytics(id),
      this.profile(id),
    ]);
    return { user, messages, analytics, userProfile: profile };
  }

  private async messages(userId: string): Promise<SimulatorMessage[]> {
    // A reply is recorded strictly after the message it answers; rows written before that rule
    // may share a timestamp, and then the question still comes first.
    const rows: MessageRow[] = await this.dataSource.query(
      `SELECT * FROM (
         SELECT ${SIMULATOR_MESSAGE_COLUMNS} FROM messages WHERE user_id = $1
         ORDER BY created_at DESC, (direction = 'outbound') DESC, id DESC LIMIT $2
       ) newest ORDER BY created_at, (direction = 'outbound'), id`,
      [userId, CONVERSATION_MESSAGE_LIMIT],
    );
    return rows.map(toSimulatorMessage);
  }

  private async analytics(userId: string): Promise<SimulatorAnalytics> {
    const [totalsRows, usageRows] = await Promise.all([
      this.dataSource.query<TotalsRow[]>(
        `SELECT count(*) AS total_messages, coalesce(sum(token_usage), 0) AS total_tokens,
                coalesce(sum(cost), 0) AS total_cost,
                count(*) FILTER (WHERE direction = 'outbound') AS replies
         FROM messages WHERE user_id = $1`,
        [userId],
      ),
      this.dataSource.query<ModelUsageRow[]>(
        `SELECT model_used, count(*) AS message_count, coalesce(sum(token_usage), 0) AS total_tokens,
                coalesce(sum(cost), 0) AS total_cost
         FROM messages WHERE user_id = $1 AND direction = 'outbound' AND model_used IS NOT NULL
         GROUP BY model_used ORDER BY count(*) DESC, sum(token_usage) DESC, model_used`,
        [userId],
      ),
    ]);
    const totals = totalsRows[0];
    const totalTokens = Number(totals?.total_tokens ?? 0);
    const replies = Number(totals?.replies ?? 0);
    const modelUsage: SimulatorModelUsage[] = usageRows.map((row) => ({
      modelName: row.model_used,
      messageCount: Number(row.message_count),
      totalTokens: Number(row.total_tokens),
      totalCost: Number(row.total_cost),
    }));
    return {
      totalMessages: Number(totals?.total_messages ?? 0),
      totalTokens,
      totalCost: Number(totals?.total_cost ?? 0),
      // Tokens are spent on replies, so they are averaged over the replies.
      averageTokensPerMessage: replies === 0 ? 0 : Math.round(totalTokens / replies),
      primaryModel: modelUsage[0]?.modelName ?? null,
      modelUsage,
    };
  }

  private async profile(userId: string): Promise<UserProfileDto> {
    const rows: ProfileRow[] = await this.dataSource.query(
      'SELECT region, profile FROM users WHERE id = $1',
      [userId],
    );
    return profileOf(rows[0] ?? { region: null, profile: null });
  }
}
