import { Inject, Injectable, Logger } from '@nestjs/common';
import { MESSAGE_STATUSES, Message, type MessageStatus } from '@sprout/domain';
import {
  type SmsDeliveryStatus,
  type SmsProvider,
  isFailedStatus,
  nextStatus,
  parseDeliveryStatus,
} from '@sprout/sms';
import { DataSource, In, IsNull, Not } from 'typeorm';
import { SMS_PROVIDER } from '../sms-provider/sms-provider.module';

export interface StatusUpdate {
  providerSid: string;
  status: SmsDeliveryStatus;
  errorCode?: string | undefined;
  errorMessage?: string | undefined;
}

export type StatusOutcome = 'updated' | 'unchanged' | 'unknown-message';

/** Provider statuses our messages table does not store, mapped to the nearest stored one. */
const toStoredStatus = (status: SmsDeliveryStatus): MessageStatus => {
  if (status === 'scheduled') return 'queued';
  if (status === 'canceled') return 'failed';
  return (MESSAGE_STATUSES as readonly string[]).includes(status) ? status : 'pending';
};

/** Outbound statuses that may still change, whose provider status a delivery check re-reads. */
const OPEN_STATUSES: MessageStatus[] = ['queued', 'accepted', 'sending', 'sent', 'pending'];

@Injectable()
export class DeliveryStatusService {
  private readonly logger = new Logger(DeliveryStatusService.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(SMS_PROVIDER) private readonly provider: SmsProvider,
  ) {}

  /**
   * Applies a provider status forward-only (a late "sent" after "delivered" changes nothing),
   * under a row lock so concurrent callbacks for one message cannot move it backwards.
   */
  async apply(update: StatusUpdate): Promise<StatusOutcome> {
    const errorMessage =
      update.errorMessage ??
      (isFailedStatus(update.status) && update.errorCode !== undefined
        ? await this.providerErrorMessage(update.providerSid)
        : undefined);

    return this.dataSource.transaction(async (manager) => {
      const message = await manager
        .createQueryBuilder(Message, 'm')
        .where('m.providerSid = :sid', { sid: update.providerSid })
        .andWhere("m.direction = 'outbound'")
        .setLock('pessimistic_write')
        .getOne();
      if (message === null) return 'unknown-message';

      const current = parseDeliveryStatus(message.status) ?? 'pending';
      const next = nextStatus(current, update.status);
      if (next === current) return 'unchanged';

      const now = new Date();
      const changes: Partial<Message> = { status: toStoredStatus(next) };
      if ((next === 'sent' || next === 'delivered' || next === 'read') && message.sentAt === null)
        changes.sentAt = now;
      if ((next === 'delivered' || next === 'read') && message.deliveredAt === null)
        changes.deliveredAt = now;
      if (isFailedStatus(next)) {
        changes.errorCode = update.errorCode ?? message.errorCode;
        changes.errorMessage =
          errorMessage ?? message.errorMessage ?? (next === 'canceled' ? 'Canceled' : null);
      }
      await manager.update(Message, { id: message.id }, changes);
      return 'updated';
    });
  }

  /**
   * Re-reads the provider status of a conversation's outbound messages that are not final yet
   * (the admin "Check Delivery Status" button). Returns how many changed.
   */
  async checkConversation(conversationId: string): Promise<number> {
    const open = await this.dataSource.getRepository(Message).find({
      where: {
        conversationId,
        direction: 'outbound',
        providerSid: Not(IsNull()),
        status: In(OPEN_STATUSES),
      },
      select: { id: true, providerSid: true },
      order: { createdAt: 'DESC' },
      take: 50,
    });
    let changed = 0;
    for (const message of open) {
      if (message.providerSid === null) continue;
      const remote = await this.provider.fetchStatus(message.providerSid);
      const outcome = await this.apply({
        providerSid: message.providerSid,
        status: remote.status,
        ...(remote.errorCode === null ? {} : { errorCode: String(remote.errorCode) }),
        ...(remote.errorMessage === null ? {} : { errorMessage: remote.errorMessage }),
      });
      if (outcome === 'updated') changed += 1;
    }
    return changed;
  }

  /** Status callbacks carry only ErrorCode; the provider's message resource has the text. */
  private async providerErrorMessage(providerSid: string): Promise<string | undefined> {
    try {
      return (await this.provider.fetchStatus(providerSid)).errorMessage ?? undefined;
    } catch (error) {
      this.logger.warn(
        `Could not read the error text of ${providerSid}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return undefined;
    }
  }
}
