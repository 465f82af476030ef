import { type Db, managerOf } from '../db';
import { Conversation } from '../entities/conversation.entity';
import { lockUser } from '../users/users';
import type { MessageKind, Sentiment } from '../types';

// A conversation's summary, written once it has gone idle (ai-responder's conversation.summarize).

export interface TranscriptRow {
  direction: 'inbound' | 'outbound';
  content: string;
  kind: MessageKind;
  topics: string[];
  sentiment: Sentiment | null;
}

export async function conversationById(db: Db, conversationId: string): Promise<Conversation | null> {
  return managerOf(db).getRepository(Conversation).findOneBy({ id: conversationId });
}

/** A conversation's latest `limit` messages, oldest first. */
export async function conversationTranscript(
  db: Db,
  conversationId: string,
  limit: number,
): Promise<TranscriptRow[]> {
  return managerOf(db).query<TranscriptRow[]>(
    `SELECT "direction", "content", "kind", "topics", "sentiment" FROM (
       SELECT * FROM "messages" WHERE "conversation_id" = $1 ORDER BY "created_at" DESC, "id" DESC LIMIT $2
     ) latest ORDER BY "created_at", "id"`,
    [conversationId, limit],
  );
}

export interface ConversationSummary {
  summary: string;
  keyOutcomes: string | null;
  nextSteps: string | null;
  topics: string[];
  sentiment: Sentiment | null;
}

/**
 * Writes the summary and ends the conversation, only if its last message is still the one at
 * `lastMessageAt`, under the user's row lock in one transaction: the same lock the inbound path
 * takes to continue a conversation, so a message arriving now either lands before this check (not
 * idle any more: nothing written, false) or opens a new conversation.
 */
export async function writeConversationSummary(
  db: Db,
  conversation: Pick<Conversation, 'id' | 'userId' | 'lastMessageAt'>,
  summary: ConversationSummary,
): Promise<boolean> {
  return managerOf(db).transaction(async (manager) => {
    await lockUser(manager, conversation.userId, true);
    const current = await manager.findOneBy(Conversation, { id: conversation.id });
    if (current === null) return false;
    if (current.lastMessageAt.getTime() !== conversation.lastMessageAt.getTime()) return false;
    await manager.update(
      Conversation,
      { id: conversation.id },
      { ...summary, endedAt: current.lastMessageAt, summarizedAt: new Date() },
    );
    return true;
  });
}
