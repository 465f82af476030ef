import type { DataSource } from 'typeorm';
import { type Db, managerOf } from '../db';
import { Conversation } from '../entities/conversation.entity';
import { Message } from '../entities/message.entity';
import { User } from '../entities/user.entity';
import { entityColumns, queryPrepared, statementText } from '../prepared-query';
import { type DueSurvey, dueSurveySql } from '../surveys/reply-surveys';
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
): Promise<{ inbound: Message; replied: boolean; replyId: string } | null> {
  const askedReplyId = replyIdFor(inboundMessageId);
  const [row] = await queryPrepared<Record<string, unknown>>(db, ANSWER_READ(db), [
    inboundMessageId,
    askedReplyId,
  ]);
  const inbound = messageWithUser(managerOf(db).connection, row);
  if (inbound === null) return null;
  if (inbound.id === inboundMessageId)
    return { inbound, replied: row?.['replied'] === true, replyId: askedReplyId };
  // The id as stored may be spelled otherwise than asked (letter case): its reply's id derives from it.
  const replyId = replyIdFor(inbound.id);
  const replied = await managerOf(db).getRepository(Message).existsBy({ id: replyId });
  return { inbound, replied, replyId };
}

export interface InboundMoods {
  /** The conversation's inbound sentiments, oldest first. */
  conversation: Sentiment[];
  /** The user's latest `window` inbound texts with their sentiments, newest first. */
  recent: Array<{ sentiment: Sentiment | null; content: string }>;
}

/** The inbound being answered, its sentiment (stored only with the reply), and whether a survey may ride on it. */
interface ReplyStateRequest {
  inbound: Pick<Message, 'id' | 'userId' | 'conversationId'>;
  sentiment: Sentiment;
  /** How many of the user's latest inbound texts `recent` holds. */
  window: number;
  /** Whether to claim the user's due survey delivery (never for a reply to an invalid text). */
  withSurvey: boolean;
}

/** What the reply is planned on besides its locked user. */
interface ReplyRecipientState {
  user: User | null;
  conversation: Conversation | null;
  /** The user's oldest due survey delivery, locked; null when none is due or none was asked for. */
  survey: DueSurvey | null;
  moods: InboundMoods;
}

// The conversation ($1); the sentiments the inbound ($3, with sentiment $4 as if stored) rolls
// into: the conversation's inbound ones and the user's ($2) latest $5 inbound texts; and when $6,
// the user's due survey delivery, locked.
const REPLY_STATE_READ = statementText(
  (dataSource) =>
    `WITH due AS (${dueSurveySql('$2', '$1', '$6::boolean')})
     SELECT ${entityColumns(dataSource, Conversation, 'c').sql},
       (SELECT array_agg(s ORDER BY created_at, id) FROM (
          SELECT CASE WHEN id = $3 THEN $4 ELSE sentiment END AS s, created_at, id FROM messages
           WHERE conversation_id = $1 AND direction = 'inbound') m
         WHERE s IS NOT NULL) AS moods_conversation,
       (SELECT json_agg(json_build_object('sentiment', s, 'content', content) ORDER BY created_at DESC, id DESC)
          FROM (SELECT CASE WHEN id = $3 THEN $4 ELSE sentiment END AS s, content, created_at, id FROM messages
                 WHERE user_id = $2 AND direction = 'inbound'
                 ORDER BY created_at DESC, id DESC LIMIT $5) r) AS moods_recent,
       due."id" AS due_id, due."campaign_id" AS due_campaign_id, due."survey_url" AS due_survey_url
     FROM conversations c LEFT JOIN due ON true WHERE c.id = $1`,
);

/**
 * The reply's user, row-locked until the caller's transaction ends, then in one statement its
 * conversation, the moods the inbound rolls into and the due survey (locked): read after the
 * lock, so they hold what a concurrent reply of the same user wrote (a join in the locking
 * statement would return the conversation as it was when that statement started waiting). Two
 * statements in all.
 */
export async function lockReplyRecipient(
  db: Db,
  { inbound, sentiment, window, withSurvey }: ReplyStateRequest,
): Promise<ReplyRecipientState> {
  const manager = managerOf(db);
  const none: InboundMoods = { conversation: [], recent: [] };
  const user = await lockUser(manager, inbound.userId);
  if (user === null || user.optedOut) return { user, conversation: null, survey: null, moods: none };
  const [row] = await queryPrepared<Record<string, unknown>>(manager, REPLY_STATE_READ(manager), [
    inbound.conversationId,
    inbound.userId,
    inbound.id,
    sentiment,
    window,
    withSurvey,
  ]);
  if (row === undefined) return { user, conversation: null, survey: null, moods: none };
  return {
    user,
    conversation: entityColumns(manager.connection, Conversation, 'c').read(row),
    survey:
      typeof row['due_id'] === 'string'
        ? {
            deliveryId: row['due_id'],
            campaignId: String(row['due_campaign_id']),
            surveyUrl: String(row['due_survey_url']),
          }
        : null,
    moods: {
      conversation: (row['moods_conversation'] as Sentiment[] | null) ?? [],
      recent: (row['moods_recent'] as InboundMoods['recent'] | null) ?? [],
    },
  };
}
