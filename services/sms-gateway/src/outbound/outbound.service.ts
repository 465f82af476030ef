import { Inject, Injectable, Logger } from '@nestjs/common';
import { Message } from '@sprout/domain';
import { CONFIG } from '@sprout/platform';
import { type SmsProvider, SmsSendError, analyzeSms, toSmsSendError } from '@sprout/sms';
import { DataSource, In, IsNull } from 'typeorm';
import type { SmsGatewayConfig } from '../config';
import { ConsentService, UNSUBSCRIBED_ERROR_CODE } from '../consent/consent.service';
import { SMS_PROVIDER } from '../sms-provider/sms-provider.module';

export type SendOutcome = 'sent' | 'test-user' | 'opted-out' | 'failed' | 'already-sent' | 'missing';

/** What an opted-out recipient's message shows instead of a delivery. */
export const OPTED_OUT_ERROR_MESSAGE = 'Not sent: the recipient has opted out (replied STOP).';

/** Statuses of an outbound message nobody has handed to the provider yet (or whose hand-off broke off). */
const UNSENT_STATUSES = ['queued', 'pending', 'sending'] as const;

@Injectable()
export class OutboundService {
  private readonly logger = new Logger(OutboundService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly consent: ConsentService,
    @Inject(SMS_PROVIDER) private readonly provider: SmsProvider,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
  ) {}

  /**
   * Sends one outbound message. Test users' messages are never sent (marked delivered); an
   * opted-out recipient gets nothing but the confirmation of their opt-out, checked here at send
   * time whatever queued the message. `finalAttempt` says whether a retryable failure should
   * still be retried (thrown) or recorded as failed.
   */
  async send(messageId: string, finalAttempt: boolean): Promise<SendOutcome> {
    const messages = this.dataSource.getRepository(Message);
    const message = await messages.findOne({ where: { id: messageId }, relations: { user: true } });
    if (message === null || message.user === undefined) {
      this.logger.warn(`Outbound message ${messageId} no longer exists`);
      return 'missing';
    }
    if (message.direction !== 'outbound') throw new Error(`Message ${messageId} is not outbound`);
    // Sent before (a retried or repeated job): the provider sid is stored once Twilio accepted it.
    if (message.providerSid !== null || !(UNSENT_STATUSES as readonly string[]).includes(message.status))
      return 'already-sent';

    const unsent = { id: messageId, providerSid: IsNull(), status: In([...UNSENT_STATUSES]) };
    const now = new Date();
    const { encoding, segments } = analyzeSms(message.content);

    if (message.isTestUser || message.user.isTestUser) {
      await messages.update(unsent, {
        status: 'delivered',
        sentAt: now,
        deliveredAt: now,
        encoding,
        segments,
      });
      return 'test-user';
    }
    if (
      message.user.optedOut &&
      !(message.kind === 'consent' && (await this.consent.isOptOutConfirmation(message.id)))
    ) {
      await messages.update(unsent, {
        status: 'failed',
        errorCode: null,
        errorMessage: OPTED_OUT_ERROR_MESSAGE,
      });
      return 'opted-out';
    }

    // In the provider's hands from here: a crash before the sid is stored leaves it 'sending', and
    // the job (still in Redis) sends it again.
    await messages.update(unsent, { status: 'sending' });
    try {
      const result = await this.provider.send({
        to: message.user.phoneNumber,
        from: this.config.twilioPhoneNumber,
        body: message.content,
        ...(message.media.length > 0 ? { mediaUrls: message.media.map((m) => m.url) } : {}),
        statusCallbackUrl: `${this.config.publicBaseUrl}/webhooks/twilio/status`,
      });
      await messages.update(unsent, {
        providerSid: result.providerSid,
        status:
          result.status === 'scheduled' ? 'queued' : result.status === 'canceled' ? 'failed' : result.status,
        segments: result.segments,
        encoding,
        sentAt: now,
      });
      return 'sent';
    } catch (caught) {
      const error: SmsSendError = caught instanceof SmsSendError ? caught : toSmsSendError(caught);
      if (error.retryable && !finalAttempt) throw error;
      const errorCode =
        error.code === undefined
          ? error.status === undefined
            ? error.kind
            : String(error.status)
          : String(error.code);
      await this.dataSource.transaction(async (manager) => {
        await manager.update(Message, unsent, {
          status: 'failed',
          errorCode,
          errorMessage: error.message.slice(0, 1000),
        });
        if (errorCode === UNSUBSCRIBED_ERROR_CODE)
          await this.consent.optOutByProvider(manager, message.userId, message.id);
      });
      this.logger.warn(`Outbound message ${messageId} failed permanently: ${error.message}`);
      return 'failed';
    }
  }
}
