import type { DataSource } from 'typeorm';
import { type Db, managerOf } from '../db';
import { Conversation } from '../entities/conversation.entity';
import { Message } from '../entities/message.entity';
import { User } from '../entities/user.entity';
import { entityColumns, entityPrepared, queryPrepared, statementText } from '../prepared-query';
import { lockUser } from '../users/users';
import type { Sentiment } from '../types';
import { replyIdFor } from './reply-id';

// What the reply pipeline reads (ai-responder's sms.inbound); its one write is recordReply.

/** `SELECT` a message (alias m) with its user (alias u) and `more` columns, then FROM. */
export const selectMessageWithUser = (dataSource: DataSource, more = ''): string =>
  `SELECT ${entityColumns(dataSource, Message, 'm').sql}, ${entityColumns(dataSource, User, 'u').sql}${more}
     FROM messages m LEFT JOIN users u ON u.id = m.user_id`;

const ANSWER_READ = statementText(
  (dataSource) =>
    `${selectMessageWithUser(dataSource, ', EXISTS (SELECT 1 FROM messages r WHERE r.id = $2) AS replied')}
    WHERE m.id = $1`,
);

/** A message row with its user's columns (aliases m and u) as the message with `user` set. */
export const messageWithUser = (
  dataSource: DataSource,
  row: Record<string, unknown> | undefined,
): Message | null => {
  if (row === undefined) return null;
  const message = entityColumns(dataSource, Message, 'm').read(row);
  const user = entityColumns(dataSource, User, 'u').read(row);
  if (message !== null && user !== null) message.user = user;
  return message;
};

/**
 * The inbound message to answer with its user (`inbound.user`), and whether its reply exists
 * already, in one statement; null when the message is gone.
 */
export async function inboundToAnswer(
  db: Db,
  inboundMessageId: string,
): Promise<{ inbound: Message; replied: boolean } | null> {
  const [row] = await queryPrepared<Record<string, unknown>>(db, ANSWER_READ(db), [
    inboundMessageId,
    replyIdFor(inboundMessageId),
  ]);
  const inbound = messageWithUser(managerOf(db).connection, row);
  if (inbound === null) return null;
  // The id as stored may be spelled otherwise than asked (letter case): its reply's id derives from it.
  const replied =
    inbound.id === inboundMessageId
      ? row?.['replied'] === true
      : await managerOf(db)
          .getRepository(Message)
          .existsBy({ id: replyIdFor(inbound.id) });
  return { inbound, replied };
}

const CONVERSATION_READ = statementText(
  (dataSource) =>
    `SELECT ${entityColumns(dataSource, Conversation, 'c').sql} FROM conversations c WHERE c.id = $1`,
);

/**
 * The reply's user, row-locked until the caller's transaction ends, then its conversation: read
 * after the lock, so it holds what a concurrent reply of the same user wrote (a join in the locking
 * statement would return the conversation as it was when that statement started waiting).
 */
export async function lockReplyRecipient(
  db: Db,
  userId: string,
  conversationId: string,
): Promise<{ user: User | null; conversation: Conversation | null }> {
  const manager = managerOf(db);
  const user = await lockUser(manager, userId);
  if (user === null || user.optedOut) return { user, conversation: null };
  const conversation = await entityPrepared(manager, Conversation, 'c', CONVERSATION_READ(manager), [
    conversationId,
  ]);
  return { user, conversation };
}

export interface InboundMoods {
  /** The conversation's inbound sentiments, oldest first. */
  conversation: Sentiment[];
  /** The user's latest `window` inbound texts with their sentiments, newest first. */
  recent: Array<{ sentiment: Sentiment | null; content: string }>;
}

/**
 * The sentiments this inbound's rolls into, read in the reply's transaction, with the inbound's
 * own (stored only with the reply) read as if it were stored already. One statement.
 */
export async function inboundMoods(
  db: Db,
  inbound: Pick<Message, 'id' | 'userId' | 'conversationId'>,
  sentiment: Sentiment,
  window: number,
): Promise<InboundMoods> {
  const [row] = await queryPrepared<{
    conversation: Sentiment[] | null;
    recent: Array<{ sentiment: Sentiment | null; content: string }> | null;
  }>(
    db,
    `SELECT
       (SELECT array_agg(s ORDER BY created_at, id) FROM (
          SELECT CASE WHEN id = $3 THEN $4 ELSE sentiment END AS s, created_at, id FROM messages
           WHERE conversation_id = $1 AND direction = 'inbound') m
         WHERE s IS NOT NULL) AS conversation,
       (SELECT json_agg(json_build_object('sentiment', s, 'content', content) ORDER BY created_at DESC, id DESC)
          FROM (SELECT CASE WHEN id = $3 THEN $4 ELSE sentiment END AS s, content, created_at, id FROM messages
                 WHERE user_id = $2 AND direction = 'inbound'
                 ORDER BY created_at DESC, id DESC LIMIT $5) r) AS recent`,
    [inbound.conversationId, inbound.userId, inbound.id, sentiment, window],
  );
  return { conversation: row?.conversation ?? [], recent: row?.recent ?? [] };
}
