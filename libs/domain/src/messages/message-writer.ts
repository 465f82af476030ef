import { randomUUID } from 'node:crypto';
import {
  type DataSource,
  EntityManager,
  type EntityMetadata,
  type EntityTarget,
  type ObjectLiteral,
} from 'typeorm';
import { Conversation } from '../entities/conversation.entity';
import { User } from '../entities/user.entity';
import { isE164 } from '../queries/users';
import type {
  ConsentEventType,
  MessageEncoding,
  MessageKind,
  MessageLocationHint,
  MessageMedia,
  MessageStatus,
  Sentiment,
} from '../types';
import { continuedConversationSql } from './conversation-rule';

// The one place that inserts messages and moves the counters they roll into (users: total
// messages, tokens, cost, last message time, active, opt-out; conversations: message count, last
// message time, model). Each write is one SQL statement (plus a row lock on the user for an
// inbound message), so the hot path costs a few round trips whatever it records. The admin rollup
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
}

export interface OutboundRecord {
  id: string;
  createdAt: Date;
  isTestUser: boolean;
}

type Db = DataSource | EntityManager;

const managerOf = (db: Db): EntityManager => (db instanceof EntityManager ? db : db.manager);

const inTransaction = <T>(db: Db, run: (tx: EntityManager) => Promise<T>): Promise<T> => {
  const manager = managerOf(db);
  return manager.queryRunner?.isTransactionActive ? run(manager) : manager.transaction(run);
};

/**
 * Locks the sender's user row, creating the user on first contact; null when a given user id does
 * not exist (or is no test user when only test users may write). The lock serialises one user's
 * messages, and the statement after it sees every message recorded before. A MessageSid recorded
 * before locks that message's user instead and creates no one (a repeated sid with another From
 * must not leave a user with no messages).
 */
const lockSender = async (
  tx: EntityManager,
  from: InboundSender,
  providerSid: string | null,
): Promise<{ id: string; inserted: boolean } | null> => {
  if ('userId' in from) {
    const rows = await tx.query<{ id: string }[]>(
      `SELECT id FROM users WHERE id = $1 AND ($2::boolean IS NOT TRUE OR is_test_user) FOR UPDATE`,
      [from.userId, from.testUserOnly ?? false],
    );
    const id = rows[0]?.id;
    return id === undefined ? null : { id, inserted: false };
  }
  if (!isE164(from.phoneNumber)) throw new RangeError('Phone number must be E.164 (e.g. +15035550123)');
  // An existing user is locked as is; a new one is inserted, or, when a concurrent first message
  // inserts it meanwhile, locked by the conflicting update (which changes nothing).
  const rows = await tx.query<{ id: string; inserted: boolean }[]>(
    `WITH recorded AS (
       SELECT u.id FROM messages m JOIN users u ON u.id = m.user_id
        WHERE m.provider_sid = $3::varchar FOR UPDATE OF u
     ),
     existing AS (
       SELECT id FROM users WHERE phone_number = $1 AND NOT EXISTS (SELECT 1 FROM recorded) FOR UPDATE
     ),
     created AS (
       INSERT INTO users (phone_number, is_test_user)
       SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM recorded) AND NOT EXISTS (SELECT 1 FROM existing)
       ON CONFLICT (phone_number) DO UPDATE SET phone_number = EXCLUDED.phone_number
       RETURNING id, xmax = 0 AS inserted
     )
     SELECT id, false AS inserted FROM recorded UNION ALL SELECT id, false FROM existing
     UNION ALL SELECT id, inserted FROM created`,
    [from.phoneNumber, from.isTestUser ?? false, providerSid],
  );
  const row = rows[0];
  if (row === undefined) throw new Error('The sender was neither found nor created');
  return row;
};

/*
 * One inbound message: the conversation continued or opened (a gap over the idle timeout opens a
 * new one), the message, the keyword's confirmation and consent event, and every counter, in one
 * statement. Sub-statements of one statement cannot see each other's rows, so the counts a new
 * conversation starts with and the times are computed up front ($8: the consent type, or null).
 */
const INBOUND_SQL = `
WITH
clock AS (
  SELECT at, confirms, CASE WHEN NOT confirms THEN at
                  ELSE greatest(statement_timestamp(), at + interval '1 millisecond') END AS last_at,
         CASE WHEN confirms THEN 2 ELSE 1 END AS added
  FROM (SELECT coalesce($2::timestamptz, statement_timestamp()) AS at,
               -- One confirmation per opt-out: a user already opted out gets none for another one.
               $8::varchar IS NOT NULL
                 AND NOT ($8::varchar = 'opt_out' AND (SELECT opted_out FROM users WHERE id = $1)) AS confirms) given
),
sender AS (SELECT id, is_test_user, opted_out, region, profile FROM users WHERE id = $1),
duplicate AS (SELECT id, user_id, conversation_id, created_at FROM messages WHERE provider_sid = $5::varchar),
continued AS (
  SELECT c.id FROM (${continuedConversationSql('$1', '(SELECT at FROM clock)', '$3')}) c
  WHERE NOT EXISTS (SELECT 1 FROM duplicate)
),
opened AS (
  INSERT INTO conversations (user_id, started_at, last_message_at, message_count, is_test_user, region, experience_level)
  SELECT sender.id, clock.at, clock.last_at, clock.added, sender.is_test_user,
         coalesce(sender.region, sender.profile ->> 'region'), sender.profile ->> 'experienceLevel'
  FROM sender, clock
  WHERE NOT EXISTS (SELECT 1 FROM continued) AND NOT EXISTS (SELECT 1 FROM duplicate)
  RETURNING id
),
continued_counts AS (
  UPDATE conversations c
     SET message_count = c.message_count + clock.added, last_message_at = greatest(c.last_message_at, clock.last_at)
    FROM clock
   WHERE c.id = (SELECT id FROM continued)
),
conversation AS (SELECT id FROM continued UNION ALL SELECT id FROM opened),
inbound AS (
  INSERT INTO messages (user_id, conversation_id, direction, content, status, kind, provider_sid, media,
                        image_content_type, location_hint, is_test_user, created_at, updated_at)
  SELECT sender.id, conversation.id, 'inbound', $4, 'received',
         CASE WHEN $8::varchar IS NULL THEN 'reply' ELSE 'consent' END,
         $5::varchar, $6::jsonb, $6::jsonb -> 0 ->> 'contentType', $7::jsonb, sender.is_test_user, clock.at, clock.at
  FROM sender, conversation, clock
  RETURNING id, conversation_id, created_at
),
confirmation AS (
  INSERT INTO messages (user_id, conversation_id, direction, content, status, kind, is_test_user,
                        encoding, segments, created_at, updated_at)
  SELECT sender.id, inbound.conversation_id, 'outbound', $10, 'queued', 'consent', sender.is_test_user,
         $11, $12, clock.last_at, clock.last_at
  FROM sender, inbound, clock
  WHERE clock.confirms
  RETURNING id
),
consent_event AS (
  INSERT INTO consent_events (user_id, type, keyword, source, message_id, reply_message_id)
  SELECT sender.id, $8, $9, 'sms', inbound.id, confirmation.id
    FROM sender CROSS JOIN inbound LEFT JOIN confirmation ON true
   WHERE $8::varchar IS NOT NULL
),
user_counts AS (
  UPDATE users u
     SET total_messages = u.total_messages + clock.added,
         last_message_at = greatest(u.last_message_at, clock.last_at),
         is_active = true,
         opted_out = CASE $8::varchar WHEN 'opt_out' THEN true WHEN 'opt_in' THEN false ELSE u.opted_out END,
         opted_out_at = CASE
           WHEN $8::varchar = 'opt_out' AND NOT u.opted_out THEN clock.at
           WHEN $8::varchar = 'opt_in' AND u.opted_out THEN NULL
           ELSE u.opted_out_at END,
         updated_at = now()
    FROM clock
   WHERE u.id = $1 AND NOT EXISTS (SELECT 1 FROM duplicate)
  RETURNING u.opted_out
)
SELECT inbound.id, sender.id AS user_id, inbound.conversation_id, inbound.created_at, true AS created,
       $8::varchar IS NOT NULL AS is_consent, (SELECT id FROM confirmation) AS reply_id,
       sender.is_test_user, (SELECT opted_out FROM user_counts) AS opted_out
  FROM inbound, sender
UNION ALL
SELECT duplicate.id, duplicate.user_id, duplicate.conversation_id, duplicate.created_at, false,
       event.id IS NOT NULL, event.reply_message_id, sender.is_test_user, sender.opted_out
  FROM duplicate CROSS JOIN sender
  LEFT JOIN LATERAL (
    SELECT id, reply_message_id FROM consent_events
     WHERE message_id = duplicate.id AND source = 'sms' ORDER BY created_at LIMIT 1
  ) event ON true`;

interface InboundRow {
  id: string;
  user_id: string;
  conversation_id: string;
  created_at: Date;
  created: boolean;
  is_consent: boolean;
  reply_id: string | null;
  is_test_user: boolean;
  opted_out: boolean;
}

/** A concurrent delivery of the same MessageSid committed first (its unique key refused ours). */
const isRepeatedSid = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === '23505' &&
  (error as { constraint?: unknown }).constraint === 'uq_messages_provider_sid';

const recordInboundOnce = (db: Db, input: InboundMessageInput): Promise<InboundRecord | null> =>
  inTransaction(db, async (tx) => {
    const providerSid = input.providerSid ?? null;
    const sender = await lockSender(tx, input.from, providerSid);
    if (sender === null) return null;
    const userId = sender.id;
    const consent = input.consent ?? null;
    const rows = await tx.query<InboundRow[]>(INBOUND_SQL, [
      userId,
      input.at ?? null,
      input.idleTimeoutMs,
      input.content,
      providerSid,
      JSON.stringify(input.media ?? []),
      input.locationHint ? JSON.stringify(input.locationHint) : null,
      consent?.type ?? null,
      consent?.keyword ?? null,
      consent?.reply.content ?? null,
      consent?.reply.encoding ?? null,
      consent?.reply.segments ?? null,
    ]);
    const row = rows[0];
    if (row === undefined) throw new Error('The inbound message was not recorded');
    if (!row.created && sender.inserted) {
      // The sid's first delivery (from another number) committed after our lock: the user this
      // delivery created has no message, so it goes (its rollup insert and delete cancel out).
      await tx.query(`DELETE FROM users WHERE id = $1`, [userId]);
    }
    return {
      created: row.created,
      messageId: row.id,
      userId: row.user_id,
      conversationId: row.conversation_id,
      createdAt: row.created_at,
      isTestUser: row.is_test_user,
      optedOut: row.opted_out,
      consent: row.is_consent ? { replyMessageId: row.reply_id } : null,
    };
  });

/**
 * Records an inbound message (SMS webhook, simulator): finds or creates the user, continues or
 * opens their conversation, stores the message and, for a compliance keyword, applies it and
 * stores its confirmation after it; moves the user's and conversation's counters. Runs in the
 * caller's transaction, or its own: four round trips (begin, the sender's lock, one statement,
 * commit). Null only when `from.userId` names no (test) user.
 */
export async function recordInbound(db: Db, input: InboundMessageInput): Promise<InboundRecord | null> {
  const ownTransaction = !managerOf(db).queryRunner?.isTransactionActive;
  try {
    return await recordInboundOnce(db, input);
  } catch (error) {
    // Two deliveries of one sid from different numbers raced: ours rolled back (no user left
    // behind); once more, it finds the first delivery's message and records nothing.
    if (!ownTransaction || !isRepeatedSid(error)) throw error;
    return recordInboundOnce(db, input);
  }
}

type ColumnMetadata = NonNullable<ReturnType<EntityMetadata['findColumnWithPropertyName']>>;

const sqlTypeOf = (column: ColumnMetadata): string =>
  `${typeof column.type === 'string' ? column.type : 'text'}${column.isArray ? '[]' : ''}`;

/** `, "column" = $n::type` for each change, its values appended to `params`. */
const assignmentsOf = <T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  changes: Partial<T> | undefined,
  params: unknown[],
): string => {
  const metadata = manager.connection.getMetadata(target);
  let sql = '';
  for (const [property, value] of Object.entries(changes ?? {})) {
    if (value === undefined) continue;
    const column = metadata.findColumnWithPropertyName(property);
    if (column === undefined) throw new Error(`${metadata.name} has no column ${property}`);
    params.push(column.type === 'jsonb' && value !== null ? JSON.stringify(value) : value);
    sql += `, "${column.databaseName}" = $${params.length}::${sqlTypeOf(column)}`;
  }
  return sql;
};

/**
 * Records an outbound message (a reply, a confirmation, a survey message) and moves its user's
 * counters (messages, tokens, cost, last message time) and its conversation's (message count,
 * last message time, model; it reopens a conversation that had ended), with the changes given,
 * in one statement. Idempotent on `id`: null when a message with that id exists (nothing written).
 */
export async function recordOutbound(db: Db, input: OutboundMessageInput): Promise<OutboundRecord | null> {
  const manager = managerOf(db);
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
  const userChanges = assignmentsOf(manager, User, input.user, params);
  const conversationChanges = assignmentsOf(manager, Conversation, input.conversation, params);
  const rows = await manager.query<{ id: string; created_at: Date; is_test_user: boolean }[]>(
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
     )
     SELECT id, created_at, is_test_user FROM reply`,
    params,
  );
  const row = rows[0];
  return row === undefined ? null : { id: row.id, createdAt: row.created_at, isTestUser: row.is_test_user };
}
