import type { DataSource, EntityManager } from 'typeorm';
import { type Db, managerOf } from '../db';
import { Message } from '../entities/message.entity';

// What image analysis reads and writes on a message: the inbound message whose photo it
// describes, and the outcome (analysis, tokens, cost, errors, settled media) written back on it.

/** The message a media item belongs to, or null when there is none. */
export function messageById(db: Db, messageId: string): Promise<Message | null> {
  return managerOf(db).getRepository(Message).findOneBy({ id: messageId });
}

/** The message under its row lock, in `tx`'s transaction. */
function lockMessage(tx: EntityManager, messageId: string): Promise<Message | null> {
  return tx
    .getRepository(Message)
    .createQueryBuilder('m')
    .setLock('pessimistic_write')
    .where('m.id = :id', { id: messageId })
    .getOne();
}

/** The columns an analysis outcome sets on its message. */
export type ImageOutcome = Partial<
  Pick<
    Message,
    | 'imageProcessed'
    | 'imageContentType'
    | 'imageAnalysis'
    | 'imageProcessingError'
    | 'tokenUsage'
    | 'cost'
    | 'modelUsed'
    | 'media'
  >
>;

/**
 * Writes an analysis outcome on the message, computed by `outcomeOf` from the message as it is
 * under its row lock (null: nothing to write), in one transaction: concurrent analyses of several
 * photos of one message then add up instead of overwriting each other. Nothing happens when the
 * message is gone.
 */
export async function updateMessageImage(
  dataSource: DataSource,
  messageId: string,
  outcomeOf: (current: Message) => ImageOutcome | null,
): Promise<void> {
  await dataSource.transaction(async (tx) => {
    const current = await lockMessage(tx, messageId);
    if (current === null) return;
    const outcome = outcomeOf(current);
    if (outcome !== null) await tx.update(Message, { id: messageId }, outcome);
  });
}
