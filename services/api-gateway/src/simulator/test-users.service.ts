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
import {
  type SimulatorMessageRow,
  type TestUserRow,
  type UserProfileRow,
  deleteTestUser,
  freeTestUserPhone,
  insertTestUser,
  newestUserMessages,
  testUserById,
  testUsers,
  userMessageTotals,
  userProfile,
} from '@sprout/domain';
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

const profileOf = (row: UserProfileRow): UserProfileDto => {
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
export const toSimulatorMessage = (row: SimulatorMessageRow): SimulatorMessage => ({
  id: row.id,
  direction: row.direction,
  content: row.content,
  imageUrl: row.media?.[0]?.url ?? null,
  imageAnalysis: row.image_analysis,
  createdAt: row.created_at.toISOString(),
  tokenUsage: row.token_usage,
  cost: Number(row.cost),
});

// simulator-messages.service reads its replies with these.
export { type SimulatorMessageRow };

/** The simulator's test users: listing, creating and deleting them, and reading their conversation. */
@Injectable()
export class TestUsersService {
  constructor(private readonly dataSource: DataSource) {}

  /** Every test user, newest first, with the number of messages they exchanged. */
  async list(): Promise<TestUserDto[]> {
    return (await testUsers(this.dataSource)).map(toTestUser);
  }

  /** The test user with this id, or null (also for real users: the simulator never shows them). */
  async find(id: string): Promise<TestUserDto | null> {
    const row = await testUserById(this.dataSource, id);
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
          : await freeTestUserPhone(this.dataSource, TEST_USER_PHONE_PREFIX, TEST_USER_PHONE_SLOTS);
      if (phone === null) break;
      const row = await insertTestUser(this.dataSource, phone, testUserName, testUserModel);
      if (row !== undefined) return { id: row.id, testUserName: row.test_user_name };
    }
    throw new InternalServerErrorException('Every test user number is taken: delete some test users first.');
  }

  /** Deletes a test user with their conversations and messages (cascade). Real users are never deleted here. */
  async delete(id: string): Promise<void> {
    if (!(await deleteTestUser(this.dataSource, id))) throw new NotFoundException(TEST_USER_NOT_FOUND);
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
    const rows = await newestUserMessages(this.dataSource, userId, CONVERSATION_MESSAGE_LIMIT);
    return rows.map(toSimulatorMessage);
  }

  private async analytics(userId: string): Promise<SimulatorAnalytics> {
    const { totals, usage: usageRows } = await userMessageTotals(this.dataSource, userId);
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
    return profileOf((await userProfile(this.dataSource, userId)) ?? { region: null, profile: null });
  }
}
