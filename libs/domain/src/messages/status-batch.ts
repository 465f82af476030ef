import { type Db, managerOf } from '../db';
import { Message } from '../entities/message.entity';
import { entityColumns, queryPrepared, statementText } from '../prepared-query';
import type { MessageStatus } from '../types';

// Status callbacks in batches (sms-gateway's sms.status): one read of every message a batch names,
// then one compare-and-set write of all their changes, instead of two statements per callback.

const BY_SIDS = statementText(
  (dataSource) =>
    `SELECT ${entityColumns(dataSource, Message, 'm').sql} FROM messages m
      WHERE m.provider_sid = ANY($1::varchar[]) AND m.direction = 'outbound'`,
);

/** The outbound messages Twilio knows by these sids (those it has; any order). */
export async function outboundBySids(db: Db, providerSids: readonly string[]): Promise<Message[]> {
  const { read } = entityColumns(managerOf(db).connection, Message, 'm');
  const rows = await queryPrepared<Record<string, unknown>>(db, BY_SIDS(db), [providerSids]);
  return rows.map((row) => read(row)).filter((message): message is Message => message !== null);
}

/** A message's status columns as they should be, written only while its status is still `expected`. */
export interface StatusWrite {
  id: string;
  expected: MessageStatus;
  status: MessageStatus;
  sentAt: Date | null;
  deliveredAt: Date | null;
  errorCode: string | null;
  errorMessage: string | null;
}

// Timestamps already set stay as they are: only the first sent/delivered moment is kept.
const WRITE = `UPDATE messages m
    SET status = w.status, sent_at = COALESCE(m.sent_at, w.sent_at),
        delivered_at = COALESCE(m.delivered_at, w.delivered_at),
        error_code = w.error_code, error_message = w.error_message, updated_at = CURRENT_TIMESTAMP
   FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::timestamptz[], $5::timestamptz[],
               $6::varchar[], $7::text[]) AS w(id, expected, status, sent_at, delivered_at, error_code, error_message)
  WHERE m.id = w.id AND m.status = w.expected
  RETURNING m.id`;

/** Writes each change whose message still has its expected status (compare and set); the ids written. */
export async function updateStatusesIfStill(db: Db, writes: readonly StatusWrite[]): Promise<Set<string>> {
  if (writes.length === 0) return new Set();
  const rows = await queryPrepared<{ id: string }>(db, WRITE, [
    writes.map((w) => w.id),
    writes.map((w) => w.expected),
    writes.map((w) => w.status),
    writes.map((w) => w.sentAt),
    writes.map((w) => w.deliveredAt),
    writes.map((w) => w.errorCode),
    writes.map((w) => w.errorMessage),
  ]);
  return new Set(rows.map((row) => row.id));
}
