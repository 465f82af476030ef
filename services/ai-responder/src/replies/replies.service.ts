import { Inject, Injectable, Logger } from '@nestjs/common';
import type { SmsInboundJobResult } from '@sprout/contracts';
import { Conversation, LlmCall, Message, User } from '@sprout/domain';
import { type ChatModel, OFFLINE_MODEL_NAME } from '@sprout/llm';
import { JobQueues, UnrecoverableError } from '@sprout/platform';
import { analyzeSms, fitToSms } from '@sprout/sms';
import { DataSource } from 'typeorm';
import { replyIdFor } from './reply-id';

/** Injection token of the chat model that writes replies. */
export const CHAT_MODEL = Symbol('chat-model');

/** Replies stay within this many SMS segments. */
export const MAX_REPLY_SEGMENTS = 3;
const MODEL_TIMEOUT_MS = 15_000;
const SYSTEM_PROMPT =
  'You are Sprout, a friendly gardening advisor reached by SMS. Answer briefly and practically.';

@Injectable()
export class RepliesService {
  private readonly logger = new Logger(RepliesService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    @Inject(CHAT_MODEL) private readonly model: ChatModel,
  ) {}

  /**
   * Answers one inbound message: writes the reply (status queued) and enqueues it for sending.
   * Idempotent: the reply's id derives from the inbound id, so a repeated job writes nothing new
   * and only re-enqueues the same outbound job (itself idempotent).
   */
  async reply(inboundMessageId: string): Promise<SmsInboundJobResult> {
    const inbound = await this.dataSource
      .getRepository(Message)
      .findOne({ where: { id: inboundMessageId }, relations: { user: true } });
    if (inbound === null || inbound.user === undefined) {
      this.logger.warn(`Inbound message ${inboundMessageId} no longer exists`);
      return { outcome: 'missing', replyMessageId: null };
    }
    if (inbound.direction !== 'inbound')
      throw new UnrecoverableError(`Message ${inboundMessageId} is not inbound`);
    const user = inbound.user;
    const replyId = replyIdFor(inbound.id);

    if (await this.dataSource.getRepository(Message).existsBy({ id: replyId })) {
      await this.queues.enqueue('sms.outbound', { messageId: replyId });
      return { outcome: 'already-replied', replyMessageId: replyId };
    }
    if (user.optedOut) return { outcome: 'opted-out', replyMessageId: null };

    const started = Date.now();
    const answer = await this.model.complete({
      model: OFFLINE_MODEL_NAME,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: inbound.content },
      ],
      timeoutMs: MODEL_TIMEOUT_MS,
    });
    const latencyMs = Date.now() - started;
    const content = fitToSms(answer.content, MAX_REPLY_SEGMENTS);
    const { encoding, segments } = analyzeSms(content);
    const tokens = answer.promptTokens + answer.completionTokens;

    const created = await this.dataSource.transaction(async (manager) => {
      const now = new Date();
      const inserted = await manager
        .createQueryBuilder()
        .insert()
        .into(Message)
        .values({
          id: replyId,
          userId: user.id,
          conversationId: inbound.conversationId,
          direction: 'outbound',
          content,
          status: 'queued',
          kind: 'reply',
          isTestUser: inbound.isTestUser || user.isTestUser,
          tokenUsage: tokens,
          cost: 0,
          modelUsed: answer.model,
          responseTimeMs: Math.max(0, now.getTime() - inbound.createdAt.getTime()),
          encoding,
          segments,
        })
        .orIgnore()
        .returning(['id'])
        .execute();
      if ((inserted.raw as unknown[]).length === 0) return false;

      await manager.insert(LlmCall, {
        messageId: replyId,
        userId: user.id,
        conversationId: inbound.conversationId,
        purpose: 'reply',
        model: answer.model,
        promptTokens: answer.promptTokens,
        completionTokens: answer.completionTokens,
        totalTokens: tokens,
        cost: 0,
        latencyMs,
        tier: answer.provider === 'offline' ? 'template' : 'primary',
        isTestUser: inbound.isTestUser || user.isTestUser,
      });
      await manager
        .createQueryBuilder()
        .update(Conversation)
        .set({
          messageCount: () => '"message_count" + 1',
          lastMessageAt: () => 'GREATEST("last_message_at", now())',
          modelUsed: answer.model,
        })
        .where('id = :id', { id: inbound.conversationId })
        .execute();
      await manager
        .createQueryBuilder()
        .update(User)
        .set({
          totalMessages: () => '"total_messages" + 1',
          totalTokens: () => `"total_tokens" + ${Math.trunc(tokens)}`,
          lastMessageAt: () => 'GREATEST(COALESCE("last_message_at", now()), now())',
        })
        .where('id = :id', { id: user.id })
        .execute();
      return true;
    });

    await this.queues.enqueue('sms.outbound', { messageId: replyId });
    return { outcome: created ? 'replied' : 'already-replied', replyMessageId: replyId };
  }
}
