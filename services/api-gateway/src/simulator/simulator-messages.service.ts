import {
  BadGatewayException,
  GatewayTimeoutException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import type {
  SimulatorMessageRequest,
  SimulatorMessageResponse,
  SmsInboundJobResult,
} from '@sprout/contracts';
import { type InboundRecord, type MessageMedia, consentToRecord, recordInbound } from '@sprout/domain';
import { CONFIG, JobQueues, JobTimeoutError } from '@sprout/platform';
import { answerComplianceKeyword, tipsConfirmationReply } from '@sprout/sms';
import { DataSource } from 'typeorm';
import type { ApiGatewayConfig } from '../config';
import { SIMULATOR_CONFIG, type SimulatorConfig } from './simulator.config';
import {
  SIMULATOR_MESSAGE_COLUMNS,
  type SimulatorMessageRow,
  TEST_USER_NOT_FOUND,
  toSimulatorMessage,
} from './test-users.service';

/** What an image sent without text asks (spec 001 §5). */
export const IMAGE_ONLY_MESSAGE = 'What can you tell me about this image?';
export const DEFAULT_IMAGE_CONTENT_TYPE = 'image/jpeg';

export const replyTimeoutMessage = (timeoutMs: number): string =>
  `No reply yet after ${Math.round(timeoutMs / 100) / 10} seconds. The message is saved and Sprout is still ` +
  'working on it: the reply will appear in the conversation when it is ready.';
export const REPLY_FAILED =
  'Sprout could not write a reply to this message. The message is saved in the conversation; ' +
  'check System Health and try again.';

/**
 * Sends a test user's message through the real SMS pipeline: recorded by the same message writer
 * and consent rules as an inbound SMS (a STOP, START or HELP is applied and confirmed here, and a
 * text that may be an opt-out is asked to reply STOP, as sms-gateway does), otherwise answered by
 * the ai-responder from the sms.inbound queue (job id from the message id), then read back.
 * Replies go to sms.outbound like any other, where a test user's message is marked delivered and
 * never sent.
 */
@Injectable()
export class SimulatorMessagesService {
  private readonly logger = new Logger(SimulatorMessagesService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    @Inject(SIMULATOR_CONFIG) private readonly config: SimulatorConfig,
    @Inject(CONFIG) private readonly appConfig: ApiGatewayConfig,
  ) {}

  async send(request: SimulatorMessageRequest): Promise<SimulatorMessageResponse> {
    const imageUrl = request.imageUrl?.trim() || null;
    const content = request.messageContent.trim() || IMAGE_ONLY_MESSAGE;
    // Typed in the console: image-processor fetches it under the admin URL policy (any public
    // host, the stack's own samples read in place), not the MMS one (Twilio's hosts only).
    const media: MessageMedia[] =
      imageUrl === null
        ? []
        : [
            {
              url: imageUrl,
              contentType: request.contentType?.trim() || DEFAULT_IMAGE_CONTENT_TYPE,
              source: 'admin',
            },
          ];

    const consent = await consentToRecord(
      this.dataSource,
      { userId: request.userId },
      answerComplianceKeyword(content, this.appConfig.contactEmail),
      { confirmation: (zip) => tipsConfirmationReply(zip, this.appConfig.gardenTipsPerMonth) },
    );
    const inbound = await recordInbound(this.dataSource, {
      from: { userId: request.userId, testUserOnly: true },
      content,
      media,
      consent,
      idleTimeoutMs: this.config.conversationIdleTimeoutMs,
      // Answered whenever it can be (see replyTimeoutMessage), even when its job is lost.
      awaitingReply: true,
    });
    if (inbound === null) throw new NotFoundException(TEST_USER_NOT_FOUND);
    if (inbound.consent !== null) return this.confirm(inbound, inbound.consent.replyMessageId);

    const waitStarted = Date.now();
    let result: SmsInboundJobResult;
    try {
      result = await this.queues.enqueueAndWait(
        'sms.inbound',
        { messageId: inbound.messageId },
        this.config.replyTimeoutMs,
      );
    } catch (error) {
      // The message and its job stay: the pipeline answers it whenever it can.
      if (error instanceof JobTimeoutError) {
        throw new GatewayTimeoutException(replyTimeoutMessage(this.config.replyTimeoutMs));
      }
      this.logger.error(error, `The reply to simulator message ${inbound.messageId} failed`);
      throw new BadGatewayException(REPLY_FAILED);
    }

    const reply = result.replyMessageId === null ? null : await this.readReply(result.replyMessageId);
    if (reply === null)
      return { responseTime: Date.now() - waitStarted, tokensUsed: 0, cost: 0, reply: null };
    return this.answerWith(inbound, reply);
  }

  /**
   * A compliance keyword's confirmation, recorded with it: queued for sms.outbound as for an SMS.
   * None for an opt-out from a user already opted out (one confirmation per opt-out).
   */
  private async confirm(
    inbound: InboundRecord,
    confirmationId: string | null,
  ): Promise<SimulatorMessageResponse> {
    if (confirmationId === null) return { responseTime: 0, tokensUsed: 0, cost: 0, reply: null };
    await this.queues.enqueue('sms.outbound', { messageId: confirmationId });
    const reply = await this.readReply(confirmationId);
    if (reply === null) throw new Error(`Confirmation ${confirmationId} is missing`);
    return this.answerWith(inbound, reply);
  }

  private answerWith(
    inbound: InboundRecord,
    reply: { row: SimulatorMessageRow; responseTimeMs: number | null },
  ): SimulatorMessageResponse {
    return {
      responseTime:
        reply.responseTimeMs ?? Math.max(0, reply.row.created_at.getTime() - inbound.createdAt.getTime()),
      tokensUsed: reply.row.token_usage,
      cost: Number(reply.row.cost),
      reply: toSimulatorMessage(reply.row),
    };
  }

  private async readReply(
    replyId: string,
  ): Promise<{ row: SimulatorMessageRow; responseTimeMs: number | null } | null> {
    const rows: (SimulatorMessageRow & { response_time_ms: number | null })[] = await this.dataSource.query(
      `SELECT ${SIMULATOR_MESSAGE_COLUMNS}, response_time_ms FROM messages WHERE id = $1`,
      [replyId],
    );
    const row = rows[0];
    return row === undefined ? null : { row, responseTimeMs: row.response_time_ms };
  }
}
