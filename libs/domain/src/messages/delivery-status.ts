import { In, IsNull, Not } from 'typeorm';
import { recordCarrierOptOut } from '../consent/carrier-opt-out';
import { type Db, managerOf } from '../db';
import { Message } from '../entities/message.entity';
import { entityColumns, entityPrepared, statementText, updatePrepared } from '../prepared-query';
import type { MessageStatus } from '../types';

// Delivery statuses of outbound messages (sms-gateway's sms.status and delivery.check): the
// caller decides the forward-only change from the row read here, and writes it back only while
// the status is still the one it read.

const BY_SID = statementText(
  (dataSource) =>
    `SELECT ${entityColumns(dataSource, Message, 'm').sql} FROM messages m
      WHERE m.provider_sid = $1 AND m.direction = 'outbound' LIMIT 1`,
);

/** The outbound message Twilio knows by `providerSid`, or null. */
export async function outboundBySid(db: Db, providerSid: string): Promise<Message | null> {
  return entityPrepared(db, Message, 'm', BY_SID(db), [providerSid]);
}

/** Writes `changes` only while the message's status is still `status` (compare and set); true when written. */
export async function updateStatusIfStill(
  db: Db,
  message: Pick<Message, 'id' | 'status'>,
  changes: Partial<Message>,
): Promise<boolean> {
  const written = await updatePrepared(db, Message, changes, 'id = $1 AND status = $2', [
    message.id,
    message.status,
  ]);
  return written === 1;
}

/**
 * Under the message's row lock in one transaction: a carrier opt-out first when `carrierOptOut`,
 * then `changesOf(message)` written when not null. Null when no outbound message has that sid,
 * else whether changes were written and whether the user was opted out by it.
 */
export async function updateStatusLocked(
  db: Db,
  providerSid: string,
  carrierOptOut: boolean,
  changesOf: (message: Message) => Partial<Message> | null,
): Promise<{ userId: string; written: boolean; optedOut: boolean } | null> {
  return managerOf(db).transaction(async (manager) => {
    const message = await manager
      .createQueryBuilder(Message, 'm')
      .where('m.providerSid = :sid', { sid: providerSid })
      .andWhere("m.direction = 'outbound'")
      .setLock('pessimistic_write')
      .getOne();
    if (message === null) return null;
    const optedOut = carrierOptOut && (await recordCarrierOptOut(manager, message.userId, message.id));
    const changes = changesOf(message);
    if (changes === null) return { userId: message.userId, written: false, optedOut };
    await manager.update(Message, { id: message.id }, changes);
    return { userId: message.userId, written: true, optedOut };
  });
}

/** A conversation's latest 50 sent outbound messages whose status is one of `statuses`. */
export async function sentOfConversation(
  db: Db,
  conversationId: string,
  statuses: readonly MessageStatus[],
): Promise<Array<Pick<Message, 'id' | 'providerSid'>>> {
  return managerOf(db)
    .getRepository(Message)
    .find({
      where: {
        conversationId,
        direction: 'outbound',
        providerSid: Not(IsNull()),
        status: In([...statuses]),
      },
      select: { id: true, providerSid: true },
      order: { createdAt: 'DESC' },
      take: 50,
    });
}

export interface StaleStatusQuery {
  statuses: readonly MessageStatus[];
  /** Messages older than this are not re-read (Twilio no longer reports on them). */
  maxAgeMs: number;
  /** Unchanged for this long, or for as long again as their age at the last read, whichever is longer. */
  staleAfterMs: number;
  limit: number;
}

/** Sent outbound messages whose status has gone stale (the stalest first). */
export async function staleSentMessages(
  db: Db,
  query: StaleStatusQuery,
): Promise<Array<{ id: string; providerSid: string }>> {
  const rows = await managerOf(db).query<Array<{ id: string; provider_sid: string }>>(
    `SELECT id, provider_sid FROM messages
        WHERE direction = 'outbound' AND provider_sid IS NOT NULL AND status = ANY($1)
          AND created_at > now() - make_interval(secs => $2)
          AND updated_at < now() - GREATEST(make_interval(secs => $3), updated_at - created_at)
        ORDER BY updated_at
        LIMIT $4`,
    [query.statuses, query.maxAgeMs / 1000, query.staleAfterMs / 1000, query.limit],
  );
  return rows.map((row) => ({ id: row.id, providerSid: row.provider_sid }));
}

/** Marks messages read now (their updated_at) while their status is one of `statuses`. */
export async function markStatusesRead(
  db: Db,
  messageIds: readonly string[],
  statuses: readonly MessageStatus[],
): Promise<void> {
  await managerOf(db).query(
    `UPDATE messages SET updated_at = now() WHERE id = ANY($1) AND status = ANY($2)`,
    [messageIds, statuses],
  );
}
