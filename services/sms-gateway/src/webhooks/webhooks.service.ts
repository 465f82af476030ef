import { Injectable, Logger } from '@nestjs/common';
import { PROVIDER_MESSAGE_STATUSES, type ProviderMessageStatus } from '@sprout/contracts';
import {
  Conversation,
  Message,
  User,
  findOrCreateUserByPhone,
  isE164,
  touchConversation,
} from '@sprout/domain';
import { JobQueues } from '@sprout/platform';
import { parseComplianceKeyword } from '@sprout/sms';
import { DataSource, type EntityManager } from 'typeorm';
import { ConsentService } from '../consent/consent.service';
import { type InboundSmsForm, type StatusCallbackForm, locationHintOf, mediaOf } from './twilio-forms';

/** stored: queued for a reply; keyword: STOP / START / HELP, answered here; duplicate: seen before. */
export type InboundOutcome = 'stored' | 'keyword' | 'duplicate' | 'ignored';

/** The job an inbound message leads to: a reply (sms.inbound) or a consent confirmation (sms.outbound). */
type NextJob = { queue: 'sms.inbound' | 'sms.outbound'; messageId: string } | null;

@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    private readonly consent: ConsentService,
  ) {}

  /**
   * Stores an inbound SMS once per MessageSid (the user and conversation are found or created in
   * the same transaction). A compliance keyword is applied in that transaction and answered with
   * its confirmation; it never reaches sms.inbound. Anything else is enqueued for a reply. A
   * repeated MessageSid stores nothing; its job is enqueued again because that is idempotent
   * (job id) and recovers a crash between the commit and the enqueue.
   */
  async receiveInbound(form: InboundSmsForm): Promise<InboundOutcome> {
    if (!isE164(form.From)) {
      this.logger.warn(`Ignored inbound ${form.MessageSid}: sender is not an E.164 number`);
      return 'ignored';
    }
    const media = mediaOf(form, form.NumMedia);
    const locationHint = locationHintOf(form);
    const keyword = parseComplianceKeyword(form.Body);

    const { next, created } = await this.dataSource.transaction(async (manager) => {
      const existing = await manager.findOne(Message, {
        where: { providerSid: form.MessageSid },
        select: { id: true },
      });
      if (existing !== null) return { next: await this.nextJobOf(manager, existing.id), created: false };

      const user = await findOrCreateUserByPhone(manager, form.From);
      const now = new Date();
      const conversation = await touchConversation(manager, user, now);
      const inserted = await manager
        .createQueryBuilder()
        .insert()
        .into(Message)
        .values({
          userId: user.id,
          conversationId: conversation.id,
          direction: 'inbound',
          content: form.Body,
          status: 'received',
          kind: keyword === null ? 'reply' : 'consent',
          providerSid: form.MessageSid,
          media,
          imageContentType: media[0]?.contentType ?? null,
          locationHint,
          isTestUser: user.isTestUser,
        })
        .orIgnore()
        .returning(['id'])
        .execute();
      const id = (inserted.raw as { id: string }[])[0]?.id;
      if (id === undefined) {
        // A concurrent delivery of the same MessageSid won the insert (and has committed).
        const winner = await manager.findOneOrFail(Message, {
          where: { providerSid: form.MessageSid },
          select: { id: true },
        });
        return { next: await this.nextJobOf(manager, winner.id), created: false };
      }
      await manager.increment(Conversation, { id: conversation.id }, 'messageCount', 1);
      await manager.update(User, { id: user.id }, { lastMessageAt: now, isActive: true });
      await manager.increment(User, { id: user.id }, 'totalMessages', 1);

      if (keyword === null) return { next: { queue: 'sms.inbound', messageId: id } as const, created: true };
      const replyId = await this.consent.applyKeyword(manager, {
        userId: user.id,
        conversationId: conversation.id,
        inboundMessageId: id,
        keyword,
        text: form.Body,
      });
      return { next: { queue: 'sms.outbound', messageId: replyId } as const, created: true };
    });

    if (next !== null) await this.queues.enqueue(next.queue, { messageId: next.messageId });
    if (!created) return 'duplicate';
    return keyword === null ? 'stored' : 'keyword';
  }

  /** Queues a delivery status update (job id: sid + status, so a repeated callback adds nothing). */
  async receiveStatus(form: StatusCallbackForm): Promise<boolean> {
    const raw = (form.MessageStatus ?? form.SmsStatus ?? '').trim().toLowerCase();
    if (!(PROVIDER_MESSAGE_STATUSES as readonly string[]).includes(raw)) {
      this.logger.warn(`Ignored status callback for ${form.MessageSid} with status "${raw}"`);
      return false;
    }
    await this.queues.enqueue('sms.status', {
      providerSid: form.MessageSid,
      status: raw as ProviderMessageStatus,
      ...(form.ErrorCode ? { errorCode: form.ErrorCode.slice(0, 32) } : {}),
      ...(form.ErrorMessage ? { errorMessage: form.ErrorMessage.slice(0, 1000) } : {}),
    });
    return true;
  }

  /** What a stored inbound message leads to: its keyword's confirmation, else a reply. */
  private async nextJobOf(manager: EntityManager, inboundMessageId: string): Promise<NextJob> {
    const confirmation = await this.consent.confirmationOf(manager, inboundMessageId);
    if (confirmation === undefined) return { queue: 'sms.inbound', messageId: inboundMessageId };
    return confirmation === null ? null : { queue: 'sms.outbound', messageId: confirmation };
  }
}
