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
import { Conversation, Message, type MessageMedia, User, touchConversation } from '@sprout/domain';
import { JobQueues, JobTimeoutError } from '@sprout/platform';
import { DataSource } from 'typeorm';
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
 * Sends a test user's message through the real SMS pipeline: stored like an inbound SMS, answered
 * by the ai-responder from the sms.inbound queue (job id from the message id), then read back.
 */
@Injectable()
export class SimulatorMessagesService {
  private readonly logger = new Logger(SimulatorMessagesService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    @Inject(SIMULATOR_CONFIG) private readonly config: SimulatorConfig,
  ) {}

  async send(request: SimulatorMessageRequest): Promise<SimulatorMessageResponse> {
    const imageUrl = request.imageUrl?.trim() || null;
    const content = request.messageContent.trim() || IMAGE_ONLY_MESSAGE;
    const media: MessageMedia[] =
      imageUrl === null
        ? []
        : [{ url: imageUrl, contentType: request.contentType?.trim() || DEFAULT_IMAGE_CONTENT_TYPE }];

    const inbound = await this.storeInbound(request.userId, content, media);
    const waitStarted = Date.now();
    let result: SmsInboundJobResult;
    try {
      result = await this.queues.enqueueAndWait(
        'sms.inbound',
        { messageId: inbound.id },
        this.config.replyTimeoutMs,
      );
    } catch (error) {
      // The message and its job stay: the pipeline answers it whenever it can.
      if (error instanceof JobTimeoutError) {
        throw new GatewayTimeoutException(replyTimeoutMessage(this.config.replyTimeoutMs));
      }
      this.logger.error(error, `The reply to simulator message ${inbound.id} failed`);
      throw new BadGatewayException(REPLY_FAILED);
    }

    const reply = result.replyMessageId === null ? null : await this.readReply(result.replyMessageId);
    if (reply === null)
      return { responseTime: Date.now() - waitStarted, tokensUsed: 0, cost: 0, reply: null };
    return {
      responseTime:
        reply.responseTimeMs ?? Math.max(0, reply.row.created_at.getTime() - inbound.createdAt.getTime()),
      tokensUsed: reply.row.token_usage,
      cost: Number(reply.row.cost),
      reply: toSimulatorMessage(reply.row),
    };
  }

  /**
   * Stores the message as sms-gateway stores an inbound SMS: in the test user's current
   * conversation, counted on the conversation and the user, status received.
   */
  private async storeInbound(
    userId: string,
    content: string,
    media: MessageMedia[],
  ): Promise<{ id: string; createdAt: Date }> {
    return this.dataSource.transaction(async (manager) => {
      const user = await manager.findOne(User, { where: { id: userId, isTestUser: true } });
      if (user === null) throw new NotFoundException(TEST_USER_NOT_FOUND);
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
          content,
          status: 'received',
          media,
          imageContentType: media[0]?.contentType ?? null,
          isTestUser: true,
        })
        .returning('id, created_at')
        .execute();
      const row = (inserted.raw as { id: string; created_at: Date }[])[0];
      if (row === undefined) throw new Error('The inbound message was not stored');
      await manager.increment(Conversation, { id: conversation.id }, 'messageCount', 1);
      await manager.update(User, { id: user.id }, { lastMessageAt: now, isActive: true });
      await manager.increment(User, { id: user.id }, 'totalMessages', 1);
      return { id: row.id, createdAt: row.created_at };
    });
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
