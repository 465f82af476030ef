import { Inject, Injectable } from '@nestjs/common';
import {
  type LedgerCall,
  type LlmTier,
  type Message,
  type MessageMedia,
  SpendLedger,
  type SpendReservation,
  imageModelRow,
  messageById,
  updateMessageImage,
} from '@sprout/domain';
import {
  type ChatMessage,
  type ChatModel,
  type ChatResult,
  IMAGE_TOKEN_ESTIMATE,
  LlmError,
  type ModelPrice,
  costOfResult,
  countChatTokens,
  defaultPriceOf,
  worstCaseCost,
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
import { DataSource } from 'typeorm';
import { type ImageProcessorConfig } from '../config';
import { ImageSource, isPermanentFetchError } from './image-source';
import { OFFLINE_IMAGE_MODEL, OfflineImageAnalyzer } from './offline/offline-image-analyzer';
import { VISION_MODEL } from './vision-model';
import { imageProcessorMetrics } from '../metrics';

/** The question asked when an MMS carries only a picture (the same text the simulator sends for an image alone). */
export const IMAGE_ONLY_QUESTION = 'What can you tell me about this image?';
const MAX_ANALYSIS_TOKENS = 500;
/**
 * The most prompt tokens one image can be billed for, reserved before a paid call: gpt-4o-mini
 * bills a high-detail image as 2,833 tokens plus 5,667 per 512 px tile, and a photo scaled to
 * 2048 x 768 has 8 tiles. Other current models bill fewer.
 */
const IMAGE_PROMPT_TOKENS_MAX = 2_833 + 8 * 5_667;

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
const settledAt = (media: MessageMedia | undefined): string | undefined =>
  media !== undefined && 'analyzedAt' in media && typeof media.analyzedAt === 'string'
    ? media.analyzedAt
    : undefined;

type ImageAnalysisStatus = 'processed' | 'failed' | 'skipped';

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

/** Who describes the photo: the vision model (paid: its reservation), or the offline analyser. */
interface Analyst {
  chat: ChatModel;
  model: string;
  price: ModelPrice | undefined;
  tier: LlmTier;
  reservation: SpendReservation | null;
}

const roundMoney = (value: number): number => Math.round(value * 1e6) / 1e6;

@Injectable()
export class ImageAnalysisService {
  private readonly metrics;
  /** Describes the photo when the daily spending limit admits no vision model call. */
  private readonly offline = new OfflineImageAnalyzer();

  constructor(
    private readonly dataSource: DataSource,
    private readonly images: ImageSource,
    private readonly ledger: SpendLedger,
    @Inject(VISION_MODEL) private readonly model: ChatModel,
    @Inject(CONFIG) private readonly config: ImageProcessorConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: Metrics,
  ) {
    this.metrics = imageProcessorMetrics(metrics);
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
    const message = await messageById(this.dataSource, messageId);
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
      this.metrics.analyses.inc({ outcome: status });
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

    const question = message.content.trim() === '' ? IMAGE_ONLY_QUESTION : message.content.trim();
    const messages: ChatMessage[] = [
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
    ];
    const analyst = await this.analyst(messages);
    const callStartedAt = Date.now();
    let answer: ChatResult;
    try {
      answer = await analyst.chat.complete({
        model: analyst.model,
        messages,
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
      await this.writeCall(analyst, message, Date.now() - callStartedAt, failure.message);
      const text = `Image analysis failed: ${failure.message}`;
      this.logger.warn(
        { messageId, mediaIndex, kind: failure.kind, retryable: failure.retryable },
        'image analysis failed',
      );
      if (failure.retryable && !attempt.final) throw failure;
      await this.recordFailure(message.id, mediaIndex, text, image.contentType, !failure.retryable);
      if (failure.retryable) throw failure;
      return result('failed', { error: text, contentType: image.contentType, model: analyst.model });
    }

    const tokens = answer.promptTokens + answer.completionTokens;
    const cost = costOfResult(answer, analyst.price ?? defaultPriceOf(answer.model));
    // The call is written first, on its own: it was paid for, whatever happens to the message.
    await this.writeCall(analyst, message, Date.now() - callStartedAt, null, answer, cost);
    await this.recordSuccess(message, mediaIndex, image.contentType, answer, cost);
    return result('processed', {
      analysis: answer.content,
      contentType: image.contentType,
      tokensUsed: tokens,
      cost,
      model: answer.model,
    });
  }

  /**
   * The vision model when the daily spending limit admits its worst case (reserved here), the
   * offline analyser when it does not; without an OpenAI key the vision model is the offline
   * analyser, which costs nothing and reserves nothing.
   */
  private async analyst(messages: ChatMessage[]): Promise<Analyst> {
    const chosen = await this.chooseModel();
    if (this.model.provider === 'offline') {
      return { chat: this.model, model: chosen.name, price: undefined, tier: 'primary', reservation: null };
    }
    const price = chosen.price ?? defaultPriceOf(chosen.name);
    // countChatTokens counts an image as its smallest bill; the reservation takes its largest.
    const prompt = countChatTokens(messages) - IMAGE_TOKEN_ESTIMATE + IMAGE_PROMPT_TOKENS_MAX;
    const reservation = await this.ledger.reserve({
      purpose: 'image',
      worstCase: worstCaseCost(price, prompt, MAX_ANALYSIS_TOKENS),
      deadlineMs: this.config.imageAnalysisTimeoutMs,
    });
    if (reservation === null) {
      return {
        chat: this.offline,
        model: OFFLINE_IMAGE_MODEL,
        price: undefined,
        tier: 'template',
        reservation,
      };
    }
    return { chat: this.model, model: chosen.name, price: chosen.price, tier: 'primary', reservation };
  }

  /** The call's llm_calls row: settled against its reservation when paid, else written as unpaid. */
  private async writeCall(
    analyst: Analyst,
    message: Message,
    latencyMs: number,
    error: string | null,
    answer?: ChatResult,
    cost = 0,
  ): Promise<void> {
    const call: LedgerCall = {
      messageId: message.id,
      userId: message.userId,
      conversationId: message.conversationId,
      purpose: 'image',
      // Over the limit no model was called: the row says so, as a template reply's does.
      model: analyst.tier === 'template' ? null : (answer?.model ?? analyst.model),
      promptTokens: answer?.promptTokens ?? 0,
      completionTokens: answer?.completionTokens ?? 0,
      cost,
      latencyMs,
      tier: analyst.tier,
      error,
      isTestUser: message.isTestUser,
    };
    if (analyst.reservation === null) await this.ledger.recordUnpaid(call);
    else await this.ledger.settle(analyst.reservation, call);
  }

  /** The live model (ai_models isLive), else the configured default, priced from its row when there is one. */
  private async chooseModel(): Promise<ChosenModel> {
    const row = await imageModelRow(this.dataSource, this.config.imageAnalysisModel);
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

  private markSettled(media: MessageMedia[], index: number): AnalyzedMedia[] {
    const at = new Date().toISOString();
    return media.map((item, i) => (i === index ? { ...item, analyzedAt: at } : item));
  }

  /** Adds the analysis to the message, unless its item was settled meanwhile. */
  private async recordSuccess(
    message: Message,
    mediaIndex: number,
    contentType: string,
    answer: ChatResult,
    cost: number,
  ): Promise<void> {
    await updateMessageImage(this.dataSource, message.id, (current) => {
      if (settledAt(current.media[mediaIndex]) !== undefined) return null;
      const several = current.media.length > 1;
      const text = several ? `Image ${mediaIndex + 1}: ${answer.content}` : answer.content;
      return {
        imageProcessed: true,
        imageContentType: current.imageContentType ?? contentType,
        imageAnalysis: several && current.imageAnalysis ? `${current.imageAnalysis}\n\n${text}` : text,
        ...(several ? {} : { imageProcessingError: null }),
        tokenUsage: current.tokenUsage + answer.promptTokens + answer.completionTokens,
        cost: roundMoney(current.cost + cost),
        modelUsed: answer.model,
        media: this.markSettled(current.media, mediaIndex),
      };
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
    await updateMessageImage(this.dataSource, messageId, (current) => {
      if (settledAt(current.media[mediaIndex]) !== undefined) return null;
      const several = current.media.length > 1;
      const text = several ? `Image ${mediaIndex + 1}: ${error}` : error;
      return {
        imageProcessed: current.imageProcessed === true,
        imageContentType: current.imageContentType ?? contentType,
        imageProcessingError:
          several && current.imageProcessingError ? `${current.imageProcessingError}\n${text}` : text,
        ...(settled ? { media: this.markSettled(current.media, mediaIndex) } : {}),
      };
    });
  }
}
