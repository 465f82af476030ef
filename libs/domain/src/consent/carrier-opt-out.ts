import { In } from 'typeorm';
import { type Db, managerOf } from '../db';
import { ConsentEvent } from '../entities/consent-event.entity';
import { User } from '../entities/user.entity';
import { lockUser } from '../users/users';

// Consent events have two writers, both here in libs/domain: record_inbound() (a keyword, with its
// message, see messages/message-writer.ts) and recordCarrierOptOut (Twilio's 21610).

/**
 * Whether an outbound message is the confirmation of an opt-out or the answer to a HELP: the only
 * messages an opted-out user may still get (carriers require HELP answered whatever the consent).
 */
export async function isOptOutConfirmation(db: Db, messageId: string): Promise<boolean> {
  return managerOf(db)
    .getRepository(ConsentEvent)
    .existsBy({ replyMessageId: messageId, type: In(['opt_out', 'help']) });
}

/**
 * The recipient opted out at the carrier (Twilio refused or failed `messageId` with 21610): marks
 * the user opted out with a consent event of source 'provider', unless they already are. Locks the
 * user's row, so call it in a transaction (`db` a transaction's manager). True when the user changed.
 */
export async function recordCarrierOptOut(db: Db, userId: string, messageId: string): Promise<boolean> {
  const manager = managerOf(db);
  const user = await lockUser(manager, userId);
  if (user === null || user.optedOut) return false;
  await manager.update(User, { id: userId }, { optedOut: true, optedOutAt: new Date() });
  await manager.insert(ConsentEvent, {
    userId,
    type: 'opt_out',
    keyword: null,
    source: 'provider',
    messageId,
  });
  return true;
}
