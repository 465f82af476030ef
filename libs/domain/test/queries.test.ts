import { truncateAll } from '@sprout/testing';
import {
  Conversation,
  DEFAULT_SPENDING_LIMIT,
  SPENDING_LIMIT_SETTING,
  User,
  findOrCreateUserByPhone,
  getSetting,
  setSetting,
  touchConversation,
} from '@sprout/domain';
import { useTestDatabase } from './test-database';

const HOUR = 60 * 60 * 1000;

describe('shared queries', () => {
  const ds = useTestDatabase(truncateAll);

  describe('findOrCreateUserByPhone', () => {
    it('creates one user even when ten callers race for the same new number', async () => {
      const users = await Promise.all(
        Array.from({ length: 10 }, () => findOrCreateUserByPhone(ds().manager, '+15035550123')),
      );
      expect(new Set(users.map((u) => u.id)).size).toBe(1);
      expect(await ds().manager.countBy(User, { phoneNumber: '+15035550123' })).toBe(1);
    });

    it('returns the existing user and keeps its test flag', async () => {
      const manager = ds().manager;
      const created = await findOrCreateUserByPhone(manager, '+15035550124', { isTestUser: true });
      expect(created.isTestUser).toBe(true);
      expect(created.isActive).toBe(true);
      expect(created.profile).toEqual({});
      expect(created.totalCost).toBe(0);
      const again = await findOrCreateUserByPhone(manager, '+15035550124');
      expect(again.id).toBe(created.id);
      expect(again.isTestUser).toBe(true);
    });

    it('refuses a number that is not E.164', async () => {
      await expect(findOrCreateUserByPhone(ds().manager, '503-555-0123')).rejects.toThrow(/E\.164/);
    });
  });

  describe('touchConversation', () => {
    it('continues the conversation within the idle window and moves lastMessageAt forward', async () => {
      const manager = ds().manager;
      const user = await findOrCreateUserByPhone(manager, '+15035550125');
      const start = new Date('2025-05-01T10:00:00Z');
      const first = await touchConversation(manager, user, start, 6 * HOUR);
      const later = new Date(start.getTime() + 5 * HOUR);
      const second = await touchConversation(manager, user, later, 6 * HOUR);
      expect(second.id).toBe(first.id);
      const stored = await manager.findOneByOrFail(Conversation, { id: first.id });
      expect(stored.startedAt).toEqual(start);
      expect(stored.lastMessageAt).toEqual(later);
      expect(stored.endedAt).toBeNull();
    });

    it('opens a new conversation after the idle timeout', async () => {
      const manager = ds().manager;
      const user = await findOrCreateUserByPhone(manager, '+15035550126', { isTestUser: true });
      const start = new Date('2025-05-01T10:00:00Z');
      const first = await touchConversation(manager, user, start, 6 * HOUR);
      const next = await touchConversation(manager, user, new Date(start.getTime() + 6 * HOUR + 1), 6 * HOUR);
      expect(next.id).not.toBe(first.id);
      expect(next.isTestUser).toBe(true);
      expect(await manager.countBy(Conversation, { userId: user.id })).toBe(2);
    });

    it('opens a new conversation when the latest one has ended, even within the window', async () => {
      const manager = ds().manager;
      const user = await findOrCreateUserByPhone(manager, '+15035550127');
      const start = new Date('2025-05-01T10:00:00Z');
      const first = await touchConversation(manager, user, start, 6 * HOUR);
      await manager.update(Conversation, { id: first.id }, { endedAt: start });
      const next = await touchConversation(manager, user, new Date(start.getTime() + HOUR), 6 * HOUR);
      expect(next.id).not.toBe(first.id);
    });

    it('gives concurrent messages of one user the same new conversation', async () => {
      const manager = ds().manager;
      const user = await findOrCreateUserByPhone(manager, '+15035550128');
      const at = new Date('2025-05-01T10:00:00Z');
      const results = await Promise.all(
        Array.from({ length: 5 }, () => touchConversation(manager, user, at, HOUR)),
      );
      expect(new Set(results.map((c) => c.id)).size).toBe(1);
    });
  });

  describe('settings', () => {
    it('returns the fallback until set, then the stored JSON value', async () => {
      const manager = ds().manager;
      expect(await getSetting<number>(manager, SPENDING_LIMIT_SETTING)).toBeUndefined();
      expect(await getSetting(manager, SPENDING_LIMIT_SETTING, DEFAULT_SPENDING_LIMIT)).toBe(50);
      await setSetting(manager, SPENDING_LIMIT_SETTING, 75.5);
      expect(await getSetting(manager, SPENDING_LIMIT_SETTING, DEFAULT_SPENDING_LIMIT)).toBe(75.5);
      await setSetting(manager, SPENDING_LIMIT_SETTING, { daily: 20 });
      expect(await getSetting(manager, SPENDING_LIMIT_SETTING)).toEqual({ daily: 20 });
    });
  });
});
