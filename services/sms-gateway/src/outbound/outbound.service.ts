import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type Message,
  UNSENT_STATUSES,
  isOptOutConfirmation,
  messageToSend,
  recordSendFailure,
  updateUnsent,
} from '@sprout/domain';
import { CONFIG } from '@sprout/platform';
import { type SmsProvider, SmsSendError, type SmsSendResult, analyzeSms, toSmsSendError } from '@sprout/sms';
import { DataSource } from 'typeorm';
import type { SmsGatewayConfig } from '../config';
import { UNSUBSCRIBED_ERROR_CODE, logCarrierOptOut } from '../consent/carrier-opt-out';
import { SMS_PROVIDER } from '../sms-provider/sms-provider.module';
import { SendCircuit } from './send-circuit';
import { SenderPacer } from './sender-pacer';
import { SMS_SPEND_LIMIT_ERROR_CODE, SmsSpending } from './sms-spending';

export type SendOutcome = 'sent' | 'test-user' | 'opted-out' | 'failed' | 'already-sent' | 'missing';

/** Not sent yet, on purpose: the job is to run again after `waitMs` (delayed in Redis). */
export interface SendHold {
  hold: 'paced' | 'circuit-open' | 'twilio-failing';
  waitMs: number;
}

/** What an opted-out recipient's message shows instead of a delivery. */
export const OPTED_OUT_ERROR_MESSAGE = 'Not sent: the recipient has opted out (replied STOP).';

/** How far before an attempt's start a message Twilio accepted may be dated (Twilio's clock, whole seconds). */
const CLOCK_SKEW_MS = 2 * 60_000;
/** While Twilio fails and the circuit is still closed, a held reply tries again after this long. */
const HELD_RETRY_MS = 30_000;

/** A little randomness, so held replies do not all wake at once. */
const withJitter = (ms: number): number => Math.round(ms + Math.random() * Math.min(5_000, ms * 0.2));

/**
 * Whether Twilio certainly did not take the message: it answered 429 or 503, or the connection
 * was refused. Anything else (a timeout, a dropped connection, another 5xx) may have been
 * accepted, and the next attempt looks for it before sending again.
 */
const certainlyNotAccepted = (error: SmsSendError): boolean =>
  error.status === 429 ||
  error.status === 503 ||
  (error.cause as { code?: unknown } | undefined)?.code === 'ECONNREFUSED';

@Injectable()
export class OutboundService {
  private readonly logger = new Logger(OutboundService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly circuit: SendCircuit,
    private readonly pacer: SenderPacer,
    private readonly spending: SmsSpending,
    @Inject(SMS_PROVIDER) private readonly provider: SmsProvider,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
  ) {}

  /**
   * Sends one outbound message. Test users' messages are never sent (marked delivered); an
   * opted-out recipient gets nothing but the confirmation of their opt-out, checked here at send
   * time whatever queued the message. The send is paced per sending number and waits while the
   * Twilio circuit is open (a hold: the caller delays the job). The attempt is recorded
   * ('sending') before Twilio is called; an attempt that broke off without an answer is looked
   * up at Twilio before the message is sent again. `finalAttempt` says whether a retryable
   * failure should still be thrown for a retry; on the final attempt the reply is held and
   * redriven until `smsSendHoldMs` after it was written, then recorded as failed.
   */
  async send(messageId: string, finalAttempt: boolean): Promise<SendOutcome | SendHold> {
    const message = await messageToSend(this.dataSource, messageId);
    if (message === null || message.user === undefined || message.user === null) {
      this.logger.warn(`Outbound message ${messageId} no longer exists`);
      return 'missing';
    }
    if (message.direction !== 'outbound') throw new Error(`Message ${messageId} is not outbound`);
    // Sent before (a retried or repeated job): the provider sid is stored once Twilio accepted it.
    if (message.providerSid !== null || !(UNSENT_STATUSES as readonly string[]).includes(message.status))
      return 'already-sent';

    const now = new Date();
    const { encoding, segments } = analyzeSms(message.content);

    if (message.isTestUser || message.user.isTestUser) {
      await updateUnsent(this.dataSource, messageId, {
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
      !(message.kind === 'consent' && (await isOptOutConfirmation(this.dataSource, message.id)))
    ) {
      await updateUnsent(this.dataSource, messageId, {
        status: 'failed',
        errorCode: null,
        errorMessage: OPTED_OUT_ERROR_MESSAGE,
      });
      return 'opted-out';
    }
    // Over the day's SMS spending limit: not sent (an answer hours late helps nobody), and says why.
    const overSpend = await this.spending.refusal(message.kind, now);
    if (overSpend !== null) {
      await updateUnsent(this.dataSource, messageId, {
        status: 'failed',
        errorCode: SMS_SPEND_LIMIT_ERROR_CODE,
        errorMessage: overSpend,
      });
      return 'failed';
    }

    const from = this.config.twilioPhoneNumber;
    // Circuit first (reading only), so replies held through an outage do not book pacing slots.
    const open = await this.circuit.peek();
    if (open.waitMs > 0) return this.holdOrExpire(message, 'circuit-open', open.waitMs);
    const paced = await this.pacer.pace(from, message.id, segments);
    if (!paced.go) return { hold: 'paced', waitMs: paced.waitMs };
    const permit = await this.circuit.acquire();
    if (permit.waitMs > 0) return this.holdOrExpire(message, 'circuit-open', permit.waitMs);

    let sending = false;
    try {
      // An earlier attempt broke off without Twilio's answer (the process died, the connection
      // dropped): Twilio may have taken it, so look before sending it a second time.
      const earlier =
        message.status === 'sending'
          ? await this.provider.findSent({
              to: message.user.phoneNumber,
              from,
              body: message.content,
              since: new Date(message.updatedAt.getTime() - CLOCK_SKEW_MS),
            })
          : null;
      if (earlier !== null) {
        this.logger.log(`Outbound message ${messageId} had been accepted by Twilio already; not sent again`);
      } else {
        // Recorded before the call: from here a crash leaves 'sending', and the retry looks it up.
        await updateUnsent(this.dataSource, messageId, { status: 'sending' });
        sending = true;
      }
      const result: SmsSendResult =
        earlier ??
        (await this.provider.send({
          to: message.user.phoneNumber,
          from,
          body: message.content,
          ...(message.media.length > 0 ? { mediaUrls: message.media.map((m) => m.url) } : {}),
          statusCallbackUrl: `${this.config.publicBaseUrl}/webhooks/twilio/status`,
        }));
      await this.circuit.recordSuccess();
      // Accepted: recorded once, with what it cost.
      await this.spending.recordSent(
        {
          messageId,
          providerSid: result.providerSid,
          status:
            result.status === 'scheduled'
              ? 'queued'
              : result.status === 'canceled'
                ? 'failed'
                : result.status,
          segments: result.segments,
          encoding,
          sentAt: now,
        },
        message.media.length > 0,
        now,
      );
      return 'sent';
    } catch (caught) {
      const error: SmsSendError = caught instanceof SmsSendError ? caught : toSmsSendError(caught);
      if (error.retryable) {
        await this.circuit.recordFailure(error.message);
        // Twilio refused this send for sure: the next attempt need not look for it.
        if (sending && certainlyNotAccepted(error))
          await updateUnsent(this.dataSource, messageId, { status: 'queued' });
        if (!finalAttempt) throw error;
        const state = await this.circuit.peek();
        const hold = this.hold(message, 'twilio-failing', Math.max(state.waitMs, HELD_RETRY_MS));
        if (hold !== null) return hold;
      }
      return this.recordFailure(message, error);
    }
  }

  /** A hold for a reply Twilio cannot take now; null once it has waited `smsSendHoldMs` since it was written. */
  private hold(message: Message, reason: SendHold['hold'], waitMs: number): SendHold | null {
    return Date.now() - message.createdAt.getTime() < this.config.smsSendHoldMs
      ? { hold: reason, waitMs: withJitter(waitMs) }
      : null;
  }

  /** Holds a reply while the circuit is open, or records it failed once held too long. */
  private async holdOrExpire(
    message: Message,
    reason: SendHold['hold'],
    waitMs: number,
  ): Promise<SendHold | 'failed'> {
    const hold = this.hold(message, reason, waitMs);
    if (hold !== null) return hold;
    const state = await this.circuit.state();
    return this.recordFailure(
      message,
      new SmsSendError({
        message: `Not sent: Twilio failing for longer than a reply is held (${state.lastError ?? 'circuit open'})`,
        kind: 'server',
      }),
    );
  }

  private async recordFailure(message: Message, error: SmsSendError): Promise<'failed'> {
    const errorCode =
      error.code === undefined
        ? error.status === undefined
          ? error.kind
          : String(error.status)
        : String(error.code);
    const optedOut = await recordSendFailure(this.dataSource, {
      messageId: message.id,
      userId: message.userId,
      errorCode,
      errorMessage: error.message.slice(0, 1000),
      carrierOptOut: errorCode === UNSUBSCRIBED_ERROR_CODE,
    });
    if (optedOut) logCarrierOptOut(message.userId);
    this.logger.warn(`Outbound message ${message.id} failed permanently: ${error.message}`);
    return 'failed';
  }
}
