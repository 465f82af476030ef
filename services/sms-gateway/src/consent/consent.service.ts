import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConsentEvent, Conversation, Message, User } from '@sprout/domain';
import { CONFIG } from '@sprout/platform';
import { type ComplianceKeyword, analyzeSms } from '@sprout/sms';
import { DataSource, type EntityManager } from 'typeorm';
import type { SmsGatewayConfig } from '../config';
import { consentReplyText } from './consent-messages';

export interface KeywordMessage {
  userId: string;
  conversationId: string;
  /** The stored inbound message that carried the keyword. */
  inboundMessageId: string;
  keyword: ComplianceKeyword;
  /** The text as received, for the audit trail. */
  text: string;
}

/** Twilio's error code for a recipient who opted out at the carrier (replied STOP to Twilio). */
export const UNSUBSCRIBED_ERROR_CODE = '21610';

/** The keyword word as received, without surrounding spaces and punctuation, upper case. */
const keywordWord = (text: string): string =>
  text
    .normalize('NFKC')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
    .toUpperCase()
    .slice(0, 32);

/**
 * SMS consent (ARCHITECTURE §6): STOP / START / HELP from an inbound SMS and carrier-level
 * opt-outs reported by Twilio (21610), each recorded as a consent event.
 */
@Injectable()
export class ConsentService {
  private readonly logger = new Logger(ConsentService.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
  ) {}

  /**
   * Applies a compliance keyword inside the transaction that stored its inbound message (so a
   * repeated MessageSid never applies it twice): updates the user's consent, writes the one
   * confirmation (status queued, for sms.outbound) and the consent event. Answers the
   * confirmation's message id. The caller holds the user's row lock (touchConversation).
   */
  async applyKeyword(manager: EntityManager, input: KeywordMessage): Promise<string> {
    const user = await manager.findOneByOrFail(User, { id: input.userId });
    const now = new Date();
    if (input.keyword === 'opt_out' && !user.optedOut) {
      await manager.update(User, { id: user.id }, { optedOut: true, optedOutAt: now });
    } else if (input.keyword === 'opt_in' && user.optedOut) {
      await manager.update(User, { id: user.id }, { optedOut: false, optedOutAt: null });
    }

    const content = consentReplyText(input.keyword, this.config.contactEmail);
    const { encoding, segments } = analyzeSms(content);
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(Message)
      .values({
        userId: user.id,
        conversationId: input.conversationId,
        direction: 'outbound',
        content,
        status: 'queued',
        kind: 'consent',
        isTestUser: user.isTestUser,
        encoding,
        segments,
      })
      .returning(['id'])
      .execute();
    const replyId = (inserted.raw as { id: string }[])[0]?.id;
    if (replyId === undefined) throw new Error('The consent confirmation was not stored');

    await manager.insert(ConsentEvent, {
      userId: user.id,
      type: input.keyword,
      keyword: keywordWord(input.text),
      source: 'sms',
      messageId: input.inboundMessageId,
      replyMessageId: replyId,
    });
    await manager.increment(Conversation, { id: input.conversationId }, 'messageCount', 1);
    await manager.increment(User, { id: user.id }, 'totalMessages', 1);
    return replyId;
  }

  /**
   * The confirmation to re-enqueue for an inbound message already handled as a keyword (a
   * repeated webhook): `undefined` when the message was no keyword, null when it was one whose
   * confirmation no longer exists.
   */
  async confirmationOf(manager: EntityManager, inboundMessageId: string): Promise<string | null | undefined> {
    const event = await manager.findOne(ConsentEvent, {
      where: { messageId: inboundMessageId, source: 'sms' },
      select: { id: true, replyMessageId: true },
    });
    return event === null ? undefined : event.replyMessageId;
  }

  /**
   * Whether an outbound message may still go to a user who opted out: only the confirmation of
   * an opt-out is sent to them.
   */
  async isOptOutConfirmation(messageId: string): Promise<boolean> {
    return this.dataSource
      .getRepository(ConsentEvent)
      .existsBy({ replyMessageId: messageId, type: 'opt_out' });
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
