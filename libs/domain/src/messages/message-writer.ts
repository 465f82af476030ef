import { randomUUID } from 'node:crypto';
import { type Db, managerOf } from '../db';
import { Conversation } from '../entities/conversation.entity';
import { User } from '../entities/user.entity';
import { assignmentsOf, queryPrepared } from '../prepared-query';
import { isE164 } from '../users/users';
import type {
  ConsentEventType,
  MessageEncoding,
  MessageKind,
  MessageLocationHint,
  MessageMedia,
  MessageStatus,
  Sentiment,
} from '../types';

// The one place that inserts messages and moves the counters they roll into (users: total
// messages, tokens, cost, last message time, active, opt-out; conversations: message count, last
// message time, model). Each write is one round trip: an inbound message one call of the database
// function record_inbound() (the sender's row lock, then one statement), an outbound one statement,
// so the hot path costs the same whatever it records. The admin rollup
// triggers on messages, users and conversations see ordinary inserts and updates: every message
// row is inserted with its final direction, kind, status, test flag and created_at.

/** Who sent an inbound message: a phone number (the user is created on first contact) or a known user. */
export type InboundSender =
  | { phoneNumber: string; isTestUser?: boolean }
  /** `testUserOnly`: only a test user (the console's simulator never writes as a real user). */
  | { userId: string; testUserOnly?: boolean };

/** A compliance keyword (STOP / START / HELP) and the confirmation it gets, recorded with its message. */
export interface InboundConsent {
  type: ConsentEventType;
  /** The keyword as received (STOP, UNSUBSCRIBE...), for the audit trail. */
  keyword: string;
  reply: { content: string; encoding: MessageEncoding; segments: number };
}

export interface InboundMessageInput {
  from: InboundSender;
  content: string;
  /** A gap longer than this (ms) since the user's last message opens a new conversation. */
  idleTimeoutMs: number;
  /** Twilio's MessageSid: a second delivery of it records nothing. */
  providerSid?: string | null;
  media?: MessageMedia[];
  locationHint?: MessageLocationHint | null;
  /**
   * The message is a compliance keyword: its opt-out or opt-in is applied, a consent event and
   * the confirmation (status queued, ordered after the message) are recorded with it.
   */
  consent?: InboundConsent | null;
  /** When the message arrived; default the database's clock (fixtures and backfills pass one). */
  at?: Date;
  /**
   * This deployment owes the sender an answer to it: the SMS webhook and the console's simulator.
   * The text (unless a keyword, or its sender is opted out), or its keyword's confirmation, gets an
   * awaiting_replies row in the same statement, which the inbound sweep enqueues again should its
   * job be lost. Off for everything else (imports, seeds, benches, fixtures): none of those is
   * ever answered by the sweep.
   */
  awaitingReply?: boolean;
}

export interface InboundRecord {
  /** False when the providerSid was recorded before: nothing was written, the ids are the first delivery's. */
  created: boolean;
  messageId: string;
  userId: string;
  conversationId: string;
  createdAt: Date;
  isTestUser: boolean;
  /** Whether the user is opted out once this message is recorded. */
  optedOut: boolean;
  /**
   * The message was a compliance keyword: its confirmation (null when deleted since, or for an
   * opt-out from a user already opted out, which gets no second confirmation).
   */
  consent: { replyMessageId: string | null } | null;
}

/** What a reply may change on its user besides the counters (the pipeline's learned profile and location). */
export type UserChanges = Partial<
  Pick<
    User,
    | 'zipCode'
    | 'city'
    | 'state'
    | 'region'
    | 'hardinessZone'
    | 'locationRefused'
    | 'locationAskedAt'
    | 'profile'
    | 'profileCompletionScore'
    | 'averageSentiment'
    | 'tipsStatus'
    | 'tipsStatusAt'
  >
>;

/** What a reply may change on its conversation besides the counters. */
export type ConversationChanges = Partial<
  Pick<Conversation, 'topics' | 'sentiment' | 'region' | 'experienceLevel'>
>;

export interface OutboundMessageInput {
  /** A fixed id (a reply's derives from its inbound's, so a retried job finds it); default a new one. */
  id?: string;
  userId: string;
  conversationId: string;
  /**
   * The message this answers: the reply is ordered strictly after it (created_at at least 1 ms
   * later), and its response time is measured from it.
   */
  inReplyTo?: string | null;
  content: string;
  kind: MessageKind;
  status?: MessageStatus;
  encoding: MessageEncoding | null;
  segments: number | null;
  tokens?: number;
  cost?: number;
  modelUsed?: string | null;
  media?: MessageMedia[];
  /** The answered message's sentiment and topics, stored on it with the reply. */
  answered?: { sentiment: Sentiment | null; topics: string[] };
  user?: UserChanges;
  conversation?: ConversationChanges;
  /** The model call (llm_calls row) that wrote this reply: linked to it in the same statement. */
  llmCallId?: string | null;
}

export interface OutboundRecord {
  id: string;
  createdAt: Date;
  isTestUser: boolean;
}

interface InboundRow {
  o_id: string;
  o_user_id: string;
  o_conversation_id: string;
  o_created_at: Date;
  o_created: boolean;
  o_is_consent: boolean;
  o_reply_id: string | null;
  o_is_test_user: boolean;
  o_opted_out: boolean;
}

/** A concurrent delivery of the same MessageSid committed first (its unique key refused ours). */
const isRepeatedSid = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === '23505' &&
  (error as { constraint?: unknown }).constraint === 'uq_messages_provider_sid';

const recordInboundOnce = async (db: Db, input: InboundMessageInput): Promise<InboundRecord | null> => {
  const { from } = input;
  if ('phoneNumber' in from && !isE164(from.phoneNumber)) {
    throw new RangeError('Phone number must be E.164 (e.g. +15035550123)');
  }
  const consent = input.consent ?? null;
  const rows = await queryPrepared<InboundRow>(
    db,
    `SELECT * FROM record_inbound($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      'userId' in from ? from.userId : null,
      'userId' in from ? (from.testUserOnly ?? false) : false,
      'phoneNumber' in from ? from.phoneNumber : null,
      'phoneNumber' in from ? (from.isTestUser ?? false) : false,
      input.at ?? null,
      input.idleTimeoutMs,
      input.content,
      input.providerSid ?? null,
      JSON.stringify(input.media ?? []),
      input.locationHint ? JSON.stringify(input.locationHint) : null,
      consent?.type ?? null,
      consent?.keyword ?? null,
      consent?.reply.content ?? null,
      consent?.reply.encoding ?? null,
      consent?.reply.segments ?? null,
      input.awaitingReply ?? false,
    ],
  );
  const row = rows[0];
  if (row === undefined) return null;
  return {
    created: row.o_created,
    messageId: row.o_id,
    userId: row.o_user_id,
    conversationId: row.o_conversation_id,
    createdAt: row.o_created_at,
    isTestUser: row.o_is_test_user,
    optedOut: row.o_opted_out,
    consent: row.o_is_consent ? { replyMessageId: row.o_reply_id } : null,
  };
};

/**
 * Records an inbound message (SMS webhook, simulator): finds or creates the user (a MessageSid
 * recorded before creates no one), locks them, continues or opens their conversation, stores the
 * message and, for a compliance keyword, applies it and stores its confirmation after it (one per
 * opt-out: none for an opt-out from a user already opted out); moves the user's and
 * conversation's counters; with `awaitingReply`, writes what is owed to the awaiting_replies
 * outbox. One call of the database function `record_inbound()` (migrations RecordInboundFunction,
 * AwaitingReplies): one round trip, its own transaction unless the caller's is open. Null only
 * when `from.userId` names no (test) user.
 */
export async function recordInbound(db: Db, input: InboundMessageInput): Promise<InboundRecord | null> {
  try {
    return await recordInboundOnce(db, input);
  } catch (error) {
    // Two deliveries of one sid from different numbers raced: ours rolled back (no user left
    // behind); once more, it finds the first delivery's message and records nothing. Inside a
    // caller's transaction the error is the caller's to handle (its transaction is aborted).
    if (managerOf(db).queryRunner?.isTransactionActive || !isRepeatedSid(error)) throw error;
    return recordInboundOnce(db, input);
  }
}

/**
 * Records an outbound message (a reply, a confirmation, a survey message) and moves its user's
 * counters (messages, tokens, cost, last message time) and its conversation's (message count,
 * last message time, model; it reopens a conversation that had ended), with the changes given,
 * in one statement; a reply (`inReplyTo`) settles its text's awaiting_replies row in the same
 * statement. Idempotent on `id`: null when a message with that id exists (nothing written).
 */
export async function recordOutbound(db: Db, input: OutboundMessageInput): Promise<OutboundRecord | null> {
  const dataSource = managerOf(db).connection;
  const params: unknown[] = [
    input.id ?? randomUUID(),
    input.userId,
    input.conversationId,
    input.inReplyTo ?? null,
    input.content,
    input.kind,
    input.status ?? 'queued',
    input.encoding,
    input.segments,
    input.tokens ?? 0,
    input.cost ?? 0,
    input.modelUsed ?? null,
    JSON.stringify(input.media ?? []),
    input.answered !== undefined,
    input.answered?.sentiment ?? null,
    input.answered?.topics ?? [],
  ];
  const userChanges = assignmentsOf(dataSource, User, input.user, params);
  const conversationChanges = assignmentsOf(dataSource, Conversation, input.conversation, params);
  let callLink = '';
  if (input.llmCallId !== undefined && input.llmCallId !== null) {
    params.push(input.llmCallId);
    callLink = `,
     call_link AS (
       UPDATE llm_calls l SET message_id = reply.id FROM reply WHERE l.id = $${params.length}::uuid
     )`;
  }
  const rows = await queryPrepared<{ id: string; created_at: Date; is_test_user: boolean }>(
    db,
    `WITH
     answered AS (SELECT id, created_at, is_test_user FROM messages WHERE id = $4::uuid),
     clock AS (
       SELECT greatest(statement_timestamp(), (SELECT created_at + interval '1 millisecond' FROM answered)) AS at
     ),
     reply AS (
       INSERT INTO messages (id, user_id, conversation_id, direction, content, status, kind, is_test_user,
                             encoding, segments, token_usage, cost, model_used, media, response_time_ms,
                             created_at, updated_at)
       SELECT $1::uuid, u.id, $3::uuid, 'outbound', $5, $7, $6, u.is_test_user OR coalesce(answered.is_test_user, false),
              $8, $9, $10, $11, $12, $13::jsonb,
              round(extract(epoch FROM clock.at - answered.created_at) * 1000)::int,
              clock.at, clock.at
         FROM users u CROSS JOIN clock LEFT JOIN answered ON true
        WHERE u.id = $2::uuid
       ON CONFLICT (id) DO NOTHING
       RETURNING id, created_at, token_usage, cost, model_used, is_test_user
     ),
     answered_insights AS (
       UPDATE messages SET sentiment = $15, topics = $16::text[], updated_at = now()
        WHERE id = $4::uuid AND $14::boolean AND EXISTS (SELECT 1 FROM reply)
     ),
     -- The answered text is settled (also when its reply was written before: a repeated job).
     settled AS (DELETE FROM awaiting_replies WHERE message_id = $4::uuid),
     user_counts AS (
       UPDATE users u
          SET total_messages = u.total_messages + 1,
              total_tokens = u.total_tokens + reply.token_usage,
              total_cost = u.total_cost + reply.cost,
              last_message_at = greatest(u.last_message_at, reply.created_at),
              updated_at = now()${userChanges}
         FROM reply
        WHERE u.id = $2::uuid
     ),
     conversation_counts AS (
       UPDATE conversations c
          SET message_count = c.message_count + 1,
              last_message_at = greatest(c.last_message_at, reply.created_at),
              ended_at = NULL,
              model_used = coalesce(reply.model_used, c.model_used)${conversationChanges}
         FROM reply
        WHERE c.id = $3::uuid
     )${callLink}
     SELECT id, created_at, is_test_user FROM reply`,
    params,
  );
  const row = rows[0];
  return row === undefined ? null : { id: row.id, createdAt: row.created_at, isTestUser: row.is_test_user };
}
