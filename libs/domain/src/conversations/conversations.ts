import type { EntityManager } from 'typeorm';
import { Conversation } from '../entities/conversation.entity';
import { User } from '../entities/user.entity';
import { lockUser } from '../users/users';
import {
  DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS,
  continuedConversationSql,
} from '../messages/conversation-rule';

export { DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS };

export type ConversationOwner = Pick<User, 'id' | 'isTestUser'> & Partial<Pick<User, 'region' | 'profile'>>;

/**
 * The conversation a message at `at` belongs to, by the message writer's rule (continued when the
 * latest is open and within `idleTimeoutMs`, moving lastMessageAt forward; otherwise a new one).
 * Concurrent calls for one user are serialised by a row lock on the user. It counts no messages:
 * production code records messages with recordInbound / recordOutbound, which do all of this in
 * their own statements; this is for fixtures that build conversations directly.
 */
export async function touchConversation(
  manager: EntityManager,
  user: ConversationOwner,
  at: Date,
  idleTimeoutMs: number = DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS,
): Promise<Conversation> {
  const run = async (tx: EntityManager): Promise<Conversation> => {
    await lockUser(tx, user.id, true);

    const [continued] = await tx.query<{ id: string }[]>(
      continuedConversationSql('$1::uuid', '$2::timestamptz', '$3'),
      [user.id, at, idleTimeoutMs],
    );
    if (continued !== undefined) {
      await tx.query(
        `UPDATE conversations SET last_message_at = greatest(last_message_at, $2) WHERE id = $1`,
        [continued.id, at],
      );
      return tx.findOneByOrFail(Conversation, { id: continued.id });
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
