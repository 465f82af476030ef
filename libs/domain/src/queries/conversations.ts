import type { EntityManager } from 'typeorm';
import { Conversation } from '../entities/conversation.entity';
import { User } from '../entities/user.entity';

/** ARCHITECTURE §4: a conversation is a run of messages with gaps under this (6 h). */
export const DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS = 6 * 60 * 60 * 1000;

export type ConversationOwner = Pick<User, 'id' | 'isTestUser'> & Partial<Pick<User, 'region' | 'profile'>>;

/**
 * The conversation a message at `at` belongs to. Continues the user's latest conversation when
 * it has not ended and its lastMessageAt is within `idleTimeoutMs` of `at` (moving lastMessageAt
 * forward); otherwise opens a new one. Concurrent calls for one user are serialised by a row
 * lock on the user, so they agree on the conversation. It does not count messages: whoever
 * inserts the message increments messageCount.
 */
export async function touchConversation(
  manager: EntityManager,
  user: ConversationOwner,
  at: Date,
  idleTimeoutMs: number = DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS,
): Promise<Conversation> {
  const run = async (tx: EntityManager): Promise<Conversation> => {
    await tx
      .createQueryBuilder(User, 'u')
      .select('u.id')
      .where('u.id = :id', { id: user.id })
      .setLock('pessimistic_write')
      .getOne();

    const latest = await tx.findOne(Conversation, {
      where: { userId: user.id },
      order: { lastMessageAt: 'DESC' },
    });
    if (
      latest &&
      latest.endedAt === null &&
      Math.abs(at.getTime() - latest.lastMessageAt.getTime()) <= idleTimeoutMs
    ) {
      if (at > latest.lastMessageAt) {
        await tx.update(Conversation, { id: latest.id }, { lastMessageAt: at });
        latest.lastMessageAt = at;
      }
      return latest;
    }

    const created = tx.create(Conversation, {
      userId: user.id,
      startedAt: at,
      lastMessageAt: at,
      isTestUser: user.isTestUser,
      region: user.region ?? user.profile?.region ?? null,
      experienceLevel: user.profile?.experienceLevel ?? null,
    });
    return tx.save(Conversation, created);
  };

  return manager.queryRunner?.isTransactionActive ? run(manager) : manager.transaction(run);
}
