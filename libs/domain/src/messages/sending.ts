import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { recordCarrierOptOut } from '../consent/carrier-opt-out';
import { type Db, managerOf } from '../db';
import { Message } from '../entities/message.entity';
import { queryPrepared, statementText, updatePrepared } from '../prepared-query';
import { messageWithUser, selectMessageWithUser } from './reply-reads';

// The send of an outbound message (sms-gateway's sms.outbound): its row read with its recipient,
// and the status moves of a message nobody has handed to the provider yet. What Twilio accepted is
// recorded with its cost by recordSmsSent (sms-spend).

/** Statuses of an outbound message nobody has handed to the provider yet (or whose hand-off broke off). */
export const UNSENT_STATUSES = ['queued', 'pending', 'sending'] as const;

const TO_SEND = statementText((dataSource) => `${selectMessageWithUser(dataSource)} WHERE m.id = $1`);

/** A message to send with its user (`message.user`), or null. One statement. */
export async function messageToSend(db: Db, messageId: string): Promise<Message | null> {
  const [row] = await queryPrepared<Record<string, unknown>>(db, TO_SEND(db), [messageId]);
  return messageWithUser(managerOf(db).connection, row);
}

/** Changes a message only while it is unsent (no provider sid, an unsent status). */
export async function updateUnsent(
  db: Db,
  messageId: string,
  changes: QueryDeepPartialEntity<Message>,
): Promise<void> {
  await updatePrepared(db, Message, changes, 'id = $1 AND provider_sid IS NULL AND status = ANY($2)', [
    messageId,
    UNSENT_STATUSES,
  ]);
}

export interface SendFailure {
  messageId: string;
  userId: string;
  errorCode: string;
  errorMessage: string;
  /** The failure says the recipient opted out at the carrier: they are opted out with it. */
  carrierOptOut: boolean;
}

/**
 * Records a send failed for good (an unsent message only) and, for a carrier opt-out, the user's
 * opt-out, in one transaction. True when the user was opted out by it.
 */
export async function recordSendFailure(db: Db, failure: SendFailure): Promise<boolean> {
  return managerOf(db).transaction(async (manager) => {
    await updateUnsent(manager, failure.messageId, {
      status: 'failed',
      errorCode: failure.errorCode,
      errorMessage: failure.errorMessage,
    });
    return failure.carrierOptOut ? recordCarrierOptOut(manager, failure.userId, failure.messageId) : false;
  });
}
