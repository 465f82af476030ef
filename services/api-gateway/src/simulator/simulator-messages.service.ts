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
import { type InboundRecord, type MessageMedia, simulatorReply } from '@sprout/domain';
import { CONFIG, JobQueues, JobTimeoutError } from '@sprout/platform';
import { receiveText } from '@sprout/sms';
import { DataSource } from 'typeorm';
import type { ApiGatewayConfig } from '../config';
import { SIMULATOR_CONFIG, type SimulatorConfig } from './simulator.config';
import { type SimulatorMessageRow, TEST_USER_NOT_FOUND, toSimulatorMessage } from './test-users.service';

/** What an image sent without text asks. */
export const IMAGE_ONLY_MESSAGE = 'What can you tell me about this image?';
const DEFAULT_IMAGE_CONTENT_TYPE = 'image/jpeg';

const replyTimeoutMessage = (timeoutMs: number): string =>
  `No reply yet after ${Math.round(timeoutMs / 100) / 10} seconds. The message is saved and Sprout is still ` +
  'working on it: the reply will appear in the conversation when it is ready.';
const REPLY_FAILED =
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

    // The same intake as an SMS: owed an answer whenever it can be (see replyTimeoutMessage), even
    // when its job is lost.
    const received = await receiveText(this.dataSource, {
      from: { userId: request.userId, testUserOnly: true },
      content,
      media,
      idleTimeoutMs: this.config.conversationIdleTimeoutMs,
      contactEmail: this.appConfig.contactEmail,
      tipsPerMonth: this.appConfig.gardenTipsPerMonth,
    });
    if (received === null) throw new NotFoundException(TEST_USER_NOT_FOUND);
    const inbound = received.record;
    if (received.next?.queue !== 'sms.inbound')
      return this.confirm(inbound, received.next?.messageId ?? null);

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
    const row = await simulatorReply(this.dataSource, replyId);
    return row === null ? null : { row, responseTimeMs: row.response_time_ms };
  }
}
