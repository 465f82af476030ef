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
import { DataSource } from 'typeorm';
import { type InboundSmsForm, type StatusCallbackForm, mediaOf } from './twilio-forms';

export type InboundOutcome = 'stored' | 'duplicate' | 'ignored';

@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
  ) {}

  /**
   * Stores an inbound SMS once per MessageSid (the user and conversation are found or created in
   * the same transaction) and enqueues it for a reply. A repeated MessageSid stores nothing; the
   * enqueue is repeated because it is idempotent (job id) and recovers a crash between the two.
   */
  async receiveInbound(form: InboundSmsForm): Promise<InboundOutcome> {
    if (!isE164(form.From)) {
      this.logger.warn(`Ignored inbound ${form.MessageSid}: sender is not an E.164 number`);
      return 'ignored';
    }
    const media = mediaOf(form, form.NumMedia);
    const { messageId, created } = await this.dataSource.transaction(async (manager) => {
      const existing = await manager.findOne(Message, {
        where: { providerSid: form.MessageSid },
        select: { id: true },
      });
      if (existing !== null) return { messageId: existing.id, created: false };

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
          providerSid: form.MessageSid,
          media,
          imageContentType: media[0]?.contentType ?? null,
          isTestUser: user.isTestUser,
        })
        .orIgnore()
        .returning(['id'])
        .execute();
      const row = inserted.raw as { id: string }[];
      const id = row[0]?.id;
      if (id === undefined) {
        // A concurrent delivery of the same MessageSid won the insert.
        const winner = await manager.findOneOrFail(Message, {
          where: { providerSid: form.MessageSid },
          select: { id: true },
        });
        return { messageId: winner.id, created: false };
      }
      await manager.increment(Conversation, { id: conversation.id }, 'messageCount', 1);
      await manager.update(User, { id: user.id }, { lastMessageAt: now, isActive: true });
      await manager.increment(User, { id: user.id }, 'totalMessages', 1);
      return { messageId: id, created: true };
    });

    await this.queues.enqueue('sms.inbound', { messageId });
    return created ? 'stored' : 'duplicate';
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
}
