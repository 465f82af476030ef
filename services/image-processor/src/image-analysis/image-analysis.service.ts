import { Inject, Injectable } from '@nestjs/common';
import { AiModel, LlmCall, Message, type MessageMedia } from '@sprout/domain';
import {
  type ChatModel,
  type ChatResult,
  LlmError,
  type ModelPrice,
  costOfResult,
  defaultPriceOf,
} from '@sprout/llm';
import {
  CONFIG,
  type FetchedImage,
  LOGGER,
  Metrics,
  SafeFetchError,
  UnrecoverableError,
} from '@sprout/platform';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import { type ImageProcessorConfig } from '../config';
import { ImageSource, isPermanentFetchError } from './image-source';
import { VISION_MODEL } from './vision-model';

/** The question asked when an MMS carries only a picture (spec: simulator image-only text). */
export const IMAGE_ONLY_QUESTION = 'What can you tell me about this image?';
const MAX_ANALYSIS_TOKENS = 500;

const SYSTEM_PROMPT = [
  'You are Sprout, a friendly gardening advisor answering by text message.',
  'Look at the photo the gardener sent and answer their question about it.',
  'Identify the plant if you can, describe its health, name any pests, disease or nutrient problems',
  'you can see, and give one or two practical next steps. If the photo shows no plant or garden,',
  'say so briefly. Keep it under 120 words.',
].join(' ');

/**
 * A media item of a message, with the marker this service sets once the item is settled
 * (analysed, or failed for good). An item with the marker is never analysed again.
 */
export type AnalyzedMedia = MessageMedia & { analyzedAt?: string };

/** When the item was settled, or undefined while it still needs analysing. */
export const settledAt = (media: MessageMedia | undefined): string | undefined =>
  media !== undefined && 'analyzedAt' in media && typeof media.analyzedAt === 'string'
    ? media.analyzedAt
    : undefined;

export type ImageAnalysisStatus = 'processed' | 'failed' | 'skipped';

export interface ImageAnalysisResult {
  status: ImageAnalysisStatus;
  messageId: string;
  mediaIndex: number;
  analysis: string | null;
  contentType: string | null;
  tokensUsed: number;
  /** Dollars. */
  cost: number;
  model: string | null;
  /** Milliseconds from job start to result. */
  processingTime: number;
  error: string | null;
}

interface ChosenModel {
  name: string;
  price: ModelPrice | undefined;
}

const roundMoney = (value: number): number => Math.round(value * 1e6) / 1e6;

@Injectable()
export class ImageAnalysisService {
  private readonly outcomes;

  constructor(
    private readonly dataSource: DataSource,
    private readonly images: ImageSource,
    @Inject(VISION_MODEL) private readonly model: ChatModel,
    @Inject(CONFIG) private readonly config: ImageProcessorConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: Metrics,
  ) {
    this.outcomes = metrics.counter('sprout_image_analyses_total', 'Image analyses by outcome', [
      'outcome',
    ] as const);
  }

  /**
   * Analyses one media item of an inbound message and records the outcome on the message and in
   * llm_calls. Permanent failures (blocked or unusable URL, rejected request) are recorded
   * and the job succeeds; passing failures throw so the queue retries, and on the final attempt
   * they are recorded before throwing.
   */
  async analyze(
    payload: { messageId: string; mediaIndex: number },
    attempt: { final: boolean } = { final: true },
  ): Promise<ImageAnalysisResult> {
    const startedAt = Date.now();
    const { messageId, mediaIndex } = payload;
    const message = await this.dataSource.getRepository(Message).findOneBy({ id: messageId });
    if (message === null) throw new UnrecoverableError(`image.analyze: message ${messageId} does not exist`);
    if (message.direction !== 'inbound')
      throw new UnrecoverableError(`image.analyze: message ${messageId} is not inbound`);
    const media = message.media[mediaIndex];
    if (media === undefined) {
      throw new UnrecoverableError(`image.analyze: message ${messageId} has no media item ${mediaIndex}`);
    }
    const result = (
      status: ImageAnalysisStatus,
      values: Partial<ImageAnalysisResult> = {},
    ): ImageAnalysisResult => {
      this.outcomes.inc({ outcome: status });
      return {
        status,
        messageId,
        mediaIndex,
        analysis: null,
        contentType: null,
        tokensUsed: 0,
        cost: 0,
        model: null,
        error: null,
        ...values,
        processingTime: Date.now() - startedAt,
      };
    };
    if (settledAt(media) !== undefined) return result('skipped');

    let image: FetchedImage;
    try {
      image = await this.images.fetch(media);
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error;
      const permanent = isPermanentFetchError(error);
      const text = `Could not fetch the image: ${error.message}`;
      this.logger.warn({ messageId, mediaIndex, code: error.code, permanent }, 'image fetch failed');
      if (!permanent && !attempt.final) throw error;
      await this.recordFailure(message.id, mediaIndex, text, media.contentType, permanent);
      if (!permanent) throw error;
      return result('failed', { error: text });
    }

    const chosen = await this.chooseModel();
    const question = message.content.trim() === '' ? IMAGE_ONLY_QUESTION : message.content.trim();
    const callStartedAt = Date.now();
    let answer: ChatResult;
    try {
      answer = await this.model.complete({
        model: chosen.name,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          {
            role: 'user',
            content: [
              { type: 'text', text: question },
              {
                type: 'image_url',
                image_url: { url: `data:${image.contentType};base64,${image.body.toString('base64')}` },
              },
            ],
          },
        ],
        maxTokens: MAX_ANALYSIS_TOKENS,
        timeoutMs: this.config.imageAnalysisTimeoutMs,
      });
    } catch (error) {
      const failure =
        error instanceof LlmError
          ? error
          : new LlmError({
              message: error instanceof Error ? error.message : String(error),
              kind: 'server',
              retryable: false,
            });
      await this.dataSource.manager.insert(
        LlmCall,
        this.callRow(message, chosen.name, Date.now() - callStartedAt, failure.message),
      );
      const text = `Image analysis failed: ${failure.message}`;
      this.logger.warn(
        { messageId, mediaIndex, kind: failure.kind, retryable: failure.retryable },
        'image analysis failed',
      );
      if (failure.retryable && !attempt.final) throw failure;
      await this.recordFailure(message.id, mediaIndex, text, image.contentType, !failure.retryable);
      if (failure.retryable) throw failure;
      return result('failed', { error: text, contentType: image.contentType, model: chosen.name });
    }

    const latencyMs = Date.now() - callStartedAt;
    const tokens = answer.promptTokens + answer.completionTokens;
    const cost = costOfResult(answer, chosen.price ?? defaultPriceOf(answer.model));
    await this.recordSuccess(message, mediaIndex, image.contentType, answer, cost, latencyMs);
    return result('processed', {
      analysis: answer.content,
      contentType: image.contentType,
      tokensUsed: tokens,
      cost,
      model: answer.model,
    });
  }

  /** The live model (ai_models isLive), else the configured default, priced from its row when there is one. */
  private async chooseModel(): Promise<ChosenModel> {
    const repository = this.dataSource.getRepository(AiModel);
    const row =
      (await repository.findOneBy({ isLive: true, isActive: true })) ??
      (await repository.findOneBy({ name: this.config.imageAnalysisModel }));
    const name = row?.isLive ? row.name : this.config.imageAnalysisModel;
    const price =
      row === null
        ? undefined
        : {
            inputPricePerMillion: row.inputPricePerMillion,
            outputPricePerMillion: row.outputPricePerMillion,
          };
    return { name, price };
  }

  private callRow(
    message: Message,
    model: string,
    latencyMs: number,
    error: string | null,
    answer?: ChatResult,
    cost = 0,
  ) {
    return {
      messageId: message.id,
      userId: message.userId,
      conversationId: message.conversationId,
      purpose: 'image' as const,
      model: answer?.model ?? model,
      promptTokens: answer?.promptTokens ?? 0,
      completionTokens: answer?.completionTokens ?? 0,
      totalTokens: (answer?.promptTokens ?? 0) + (answer?.completionTokens ?? 0),
      cost,
      latencyMs,
      tier: 'primary' as const,
      error,
      isTestUser: message.isTestUser,
    };
  }

  /** Locks the message row so concurrent media of one message add up instead of overwriting. */
  private async lockMessage(tx: EntityManager, messageId: string): Promise<Message | null> {
    return tx
      .getRepository(Message)
      .createQueryBuilder('m')
      .setLock('pessimistic_write')
      .where('m.id = :id', { id: messageId })
      .getOne();
  }

  private markSettled(media: MessageMedia[], index: number): AnalyzedMedia[] {
    const at = new Date().toISOString();
    return media.map((item, i) => (i === index ? { ...item, analyzedAt: at } : item));
  }

  private async recordSuccess(
    message: Message,
    mediaIndex: number,
    contentType: string,
    answer: ChatResult,
    cost: number,
    latencyMs: number,
  ): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      // The message's row lock first: inserting the call first takes a key-share lock on it (the
      // foreign key), and two analyses of one message holding that each then waited for the other.
      const current = await this.lockMessage(tx, message.id);
      // The model was paid for, whatever happens to the message below.
      await tx.insert(LlmCall, this.callRow(message, answer.model, latencyMs, null, answer, cost));
      if (current === null || settledAt(current.media[mediaIndex]) !== undefined) return;
      const several = current.media.length > 1;
      const text = several ? `Image ${mediaIndex + 1}: ${answer.content}` : answer.content;
      await tx.update(
        Message,
        { id: message.id },
        {
          imageProcessed: true,
          imageContentType: current.imageContentType ?? contentType,
          imageAnalysis: several && current.imageAnalysis ? `${current.imageAnalysis}\n\n${text}` : text,
          ...(several ? {} : { imageProcessingError: null }),
          tokenUsage: current.tokenUsage + answer.promptTokens + answer.completionTokens,
          cost: roundMoney(current.cost + cost),
          modelUsed: answer.model,
          media: this.markSettled(current.media, mediaIndex),
        },
      );
    });
  }

  /** `settled`: the failure is final, so the item is marked and never analysed again. */
  private async recordFailure(
    messageId: string,
    mediaIndex: number,
    error: string,
    contentType: string | null,
    settled: boolean,
  ): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const current = await this.lockMessage(tx, messageId);
      if (current === null || settledAt(current.media[mediaIndex]) !== undefined) return;
      const several = current.media.length > 1;
      const text = several ? `Image ${mediaIndex + 1}: ${error}` : error;
      await tx.update(
        Message,
        { id: messageId },
        {
          imageProcessed: current.imageProcessed === true,
          imageContentType: current.imageContentType ?? contentType,
          imageProcessingError:
            several && current.imageProcessingError ? `${current.imageProcessingError}\n${text}` : text,
          ...(settled ? { media: this.markSettled(current.media, mediaIndex) } : {}),
        },
      );
    });
  }
}
