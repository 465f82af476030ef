import { Inject, Injectable, Logger } from '@nestjs/common';
import { Message } from '@sprout/domain';
import { CONFIG } from '@sprout/platform';
import { type SmsProvider, SmsSendError, analyzeSms, toSmsSendError } from '@sprout/sms';
import { DataSource, In, IsNull } from 'typeorm';
import type { SmsGatewayConfig } from '../config';
import { SMS_PROVIDER } from '../sms-provider/sms-provider.module';

export type SendOutcome = 'sent' | 'test-user' | 'opted-out' | 'failed' | 'already-sent' | 'missing';

/** Twilio's code for a recipient who replied STOP. */
const UNSUBSCRIBED_CODE = '21610';

@Injectable()
export class OutboundService {
  private readonly logger = new Logger(OutboundService.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(SMS_PROVIDER) private readonly provider: SmsProvider,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
  ) {}

  /**
   * Sends one outbound message. Test users' messages are never sent (marked delivered); an
   * opted-out recipient gets nothing. `finalAttempt` says whether a retryable failure should
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
    if (message.providerSid !== null || !['queued', 'pending', 'sending'].includes(message.status))
      return 'already-sent';

    const pending = { id: messageId, providerSid: IsNull(), status: In(['queued', 'pending', 'sending']) };
    const now = new Date();
    const { encoding, segments } = analyzeSms(message.content);

    if (message.isTestUser || message.user.isTestUser) {
      await messages.update(pending, {
        status: 'delivered',
        sentAt: now,
        deliveredAt: now,
        encoding,
        segments,
      });
      return 'test-user';
    }
    if (message.user.optedOut) {
      await messages.update(pending, {
        status: 'failed',
        errorCode: UNSUBSCRIBED_CODE,
        errorMessage: 'Recipient has opted out (STOP)',
      });
      return 'opted-out';
    }

    try {
      const result = await this.provider.send({
        to: message.user.phoneNumber,
        from: this.config.twilioPhoneNumber,
        body: message.content,
        ...(message.media.length > 0 ? { mediaUrls: message.media.map((m) => m.url) } : {}),
        statusCallbackUrl: `${this.config.publicBaseUrl}/webhooks/twilio/status`,
      });
      await messages.update(pending, {
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
      await messages.update(pending, {
        status: 'failed',
        errorCode:
          error.code === undefined
            ? error.status === undefined
              ? error.kind
              : String(error.status)
            : String(error.code),
        errorMessage: error.message.slice(0, 1000),
      });
      this.logger.warn(`Outbound message ${messageId} failed permanently: ${error.message}`);
      return 'failed';
    }
  }
}
