import { Injectable, Logger } from '@nestjs/common';
import { ConsentEvent, User } from '@sprout/domain';
import { DataSource, type EntityManager, In } from 'typeorm';

/** Twilio's error code for a recipient who opted out at the carrier (replied STOP to Twilio). */
export const UNSUBSCRIBED_ERROR_CODE = '21610';

/**
 * SMS consent at send time: who may still get a message, and carrier-level
 * opt-outs reported by Twilio (21610). STOP / START / HELP texts, opt-outs by intent and texts that
 * may be opt-outs (asked to reply STOP) are read in libs/sms (keywords.ts) and applied where they
 * are recorded (recordInbound in libs/domain: one confirmation per opt-out), for an SMS and the
 * simulator alike.
 */
@Injectable()
export class ConsentService {
  private readonly logger = new Logger(ConsentService.name);

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Whether an outbound message may still go to a user who opted out: only the confirmation of
   * their opt-out and the answer to a HELP (carriers require HELP to be answered whatever the
   * consent; it carries no advice).
   */
  async isOptOutConfirmation(messageId: string): Promise<boolean> {
    return this.dataSource
      .getRepository(ConsentEvent)
      .existsBy({ replyMessageId: messageId, type: In(['opt_out', 'help']) });
  }

  /**
   * Twilio refused or failed a message with 21610: the recipient opted out at the carrier. Marks
   * the user opted out (a consent event with source 'provider') unless they already are. Runs in
   * the caller's transaction; answers whether the user changed.
   */
  async optOutByProvider(manager: EntityManager, userId: string, messageId: string): Promise<boolean> {
    const user = await manager
      .createQueryBuilder(User, 'u')
      .where('u.id = :id', { id: userId })
      .setLock('pessimistic_write')
      .getOne();
    if (user === null || user.optedOut) return false;
    await manager.update(User, { id: userId }, { optedOut: true, optedOutAt: new Date() });
    await manager.insert(ConsentEvent, {
      userId,
      type: 'opt_out',
      keyword: null,
      source: 'provider',
      messageId,
    });
    this.logger.log(`User ${userId} opted out at the carrier (Twilio ${UNSUBSCRIBED_ERROR_CODE})`);
    return true;
  }
}
