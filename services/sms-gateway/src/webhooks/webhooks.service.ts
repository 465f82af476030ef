import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type InboundSmsForm,
  PROVIDER_MESSAGE_STATUSES,
  type ProviderMessageStatus,
  STATUS_CALLBACKS_PER_JOB,
  type StatusCallback,
  type StatusCallbackForm,
  statusCallbackSchema,
} from '@sprout/contracts';
import { isE164 } from '@sprout/domain';
import { Batcher, CONFIG, JobQueues } from '@sprout/platform';
import { receiveText } from '@sprout/sms';
import { DataSource } from 'typeorm';
import type { SmsGatewayConfig } from '../config';
import { locationHintOf, mediaOf } from './twilio-forms';

/**
 * stored: queued for a reply; keyword: STOP / START / HELP (or a text that may be an opt-out, asked
 * to reply STOP), answered here; duplicate: seen before.
 */
export type InboundOutcome = 'stored' | 'keyword' | 'duplicate' | 'ignored';

@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);
  /** Status callbacks collected into one sms.status job (BullMQ's add was most of a callback's cost). */
  private readonly statusBatches: Batcher<StatusCallback>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
  ) {
    this.statusBatches = new Batcher((callbacks) => this.queues.enqueue('sms.status', { callbacks }), {
      maxWaitMs: config.smsStatusBatchWaitMs,
      maxItems: STATUS_CALLBACKS_PER_JOB,
    });
  }

  /**
   * Stores an inbound SMS once per MessageSid with the message writer (user found or created,
   * conversation continued or opened after CONVERSATION_IDLE_TIMEOUT_MS, counters). A compliance
   * keyword is applied in the same statement and answered with its confirmation, a maybe-opt-out
   * with its question (unless the sender is opted out already); neither reaches sms.inbound.
   * Anything else is enqueued for a reply. A repeated MessageSid stores nothing; its job is
   * enqueued again because that is idempotent (job id) and recovers a crash between the
   * commit and the enqueue.
   */
  async receiveInbound(form: InboundSmsForm): Promise<InboundOutcome> {
    if (!isE164(form.From)) {
      this.logger.warn(`Ignored inbound ${form.MessageSid}: sender is not an E.164 number`);
      return 'ignored';
    }
    // Owed an answer (or the keyword's confirmation): the inbound sweep redrives it if its job is lost.
    const received = await receiveText(this.dataSource, {
      from: { phoneNumber: form.From },
      content: form.Body,
      providerSid: form.MessageSid,
      media: mediaOf(form, form.NumMedia),
      locationHint: locationHintOf(form),
      idleTimeoutMs: this.config.conversationIdleTimeoutMs,
      contactEmail: this.config.contactEmail,
      tipsPerMonth: this.config.gardenTipsPerMonth,
    });
    if (received === null) throw new Error(`Inbound ${form.MessageSid} was not recorded`);

    const { record, next } = received;
    if (next !== null) await this.queues.enqueue(next.queue, { messageId: next.messageId });
    if (!record.created) return 'duplicate';
    return record.consent === null ? 'stored' : 'keyword';
  }

  /**
   * Queues a delivery status update in the sms.status job of the callbacks arriving with it; answers
   * once that job is in Redis, so a callback Twilio saw accepted survives this process.
   */
  async receiveStatus(form: StatusCallbackForm): Promise<boolean> {
    const raw = (form.MessageStatus ?? form.SmsStatus ?? '').trim().toLowerCase();
    if (!(PROVIDER_MESSAGE_STATUSES as readonly string[]).includes(raw)) {
      this.logger.warn(`Ignored status callback for ${form.MessageSid} with status "${raw}"`);
      return false;
    }
    // Parsed alone first: a callback the job schema refuses fails by itself, not its whole batch.
    const callback = statusCallbackSchema.parse({
      providerSid: form.MessageSid,
      status: raw as ProviderMessageStatus,
      ...(form.ErrorCode ? { errorCode: form.ErrorCode.slice(0, 32) } : {}),
      ...(form.ErrorMessage ? { errorMessage: form.ErrorMessage.slice(0, 1000) } : {}),
    });
    await this.statusBatches.add(callback);
    return true;
  }
}
