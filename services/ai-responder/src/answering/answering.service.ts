import { Inject, Injectable, Logger } from '@nestjs/common';
import type { LlmTier, SpendReservation } from '@sprout/domain';
import { type Advice, type AdviceRequest, type TextAnalysis, advisorReferences } from '@sprout/gardening';
import {
  type ChatMessage,
  type ChatModel,
  type ChatResult,
  LlmError,
  OFFLINE_MODEL_NAME,
  OfflineChatModel,
  costOfResult,
  countChatTokens,
  worstCaseCost,
} from '@sprout/llm';
import { CONFIG } from '@sprout/platform';
import { type AiResponderConfig } from '../config';
import { SpendingService } from '../spending/spending.service';
import { type ConversationHistory } from './conversation-history.service';
import { type CatalogModel, ModelCatalogService } from './model-catalog.service';
import { type GardenerContext, buildSystemPrompt, buildUserTurn } from './system-prompt';

/** Injection token of the OpenAI chat model; null when no OPENAI_API_KEY is configured. */
export const CHAT_MODEL = Symbol('chat-model');
/** Injection token of the offline advisor (libs/gardening adviseOffline): the template tier. */
export const OFFLINE_ADVISOR = Symbol('offline-advisor');
export type OfflineAdvisor = (request: AdviceRequest) => Advice;

/** The last tier: said when nothing else could answer. */
export const MINIMAL_RESPONSE =
  "Sorry, I couldn't answer that right now. Please try again in a little while.";

export interface AnswerRequest {
  /** The gardener's question (an image-only MMS gets the standard image question). */
  question: string;
  /** The question's analysis (analyzeText), shared with the advisor's search. */
  analysis?: TextAnalysis;
  /** Input processing's context note ("[Context: Location: ...; USDA zone: ...]"). */
  messageContext: string | null;
  /** The image model's description of the MMS photo, when there is one. */
  imageAnalysis: string | null;
  gardener: GardenerContext;
  history: ConversationHistory;
  /** A simulator test user's chosen model (or "offline-advisor"); replaces the live model. */
  testUserModel: string | null;
  owner: { userId: string; conversationId: string; isTestUser: boolean };
  /** Longest reply wanted, in characters. */
  maxChars: number;
  now: Date;
}

export interface Answer {
  text: string;
  tier: LlmTier;
  /** Who wrote the text (messages.model_used): the model, "offline-advisor", or null (minimal). */
  author: string | null;
  promptTokens: number;
  completionTokens: number;
  cost: number;
  /** The llm_calls row of the answering model call, to link to the reply; null for template and minimal. */
  callId: string | null;
}

interface Attempt {
  tier: 'primary' | 'fallback';
  model: CatalogModel;
  chat: ChatModel;
}

const MAX_ERROR_CHARS = 500;
/** How many knowledge entries go into a model's prompt as reference. */
const REFERENCE_COUNT = 3;

/** Model output as SMS text: markdown emphasis, headings and bullets dropped. */
export const toPlainSms = (text: string): string =>
  text
    .replace(/\*\*|__|`/g, '')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*[-*\u2022]\s+/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/**
 * The fallback chain: the primary model, then the fallback model, then
 * the offline advisor's template answer, then a minimal response. Each model call has its own
 * deadline (LLM_TIMEOUT_MS) and is written to llm_calls at once, failures included. With the daily
 * spending limit reached no model is called: replies go straight to the template tier.
 *
 * Tiers in llm_calls: "primary" and "fallback" are model calls (with an OpenAI key the live and
 * fallback rows of ai_models; without one the offline advisor is the primary model, model
 * "offline-advisor", cost 0); "template" is the offline advisor standing in for failed or
 * unaffordable models (model null); "minimal" is the fixed apology (model null).
 */
@Injectable()
export class AnsweringService {
  private readonly logger = new Logger(AnsweringService.name);

  constructor(
    @Inject(CONFIG) private readonly config: AiResponderConfig,
    @Inject(CHAT_MODEL) private readonly openAi: ChatModel | null,
    @Inject(OFFLINE_ADVISOR) private readonly advisor: OfflineAdvisor,
    private readonly catalog: ModelCatalogService,
    private readonly spending: SpendingService,
  ) {}

  async answer(request: AnswerRequest): Promise<Answer> {
    for (const attempt of await this.attempts(request)) {
      const messages = this.messagesFor(attempt, request);
      // The call's worst case is held against the daily limit until its real cost is written.
      const worstCase =
        attempt.chat.provider === 'offline'
          ? 0
          : worstCaseCost(attempt.model.price, countChatTokens(messages), attempt.model.maxTokens);
      const reservation = await this.spending.reserve({
        purpose: 'reply',
        worstCase,
        deadlineMs: this.config.llmTimeoutMs,
      });
      if (reservation === null) break;
      const answer = await this.tryModel(attempt, messages, request, reservation);
      if (answer !== null) return answer;
    }
    return this.templateOrMinimal(request);
  }

  private async attempts(request: AnswerRequest): Promise<Attempt[]> {
    // The offline advisor reads the conversation from the chat messages, like any model.
    const offline = new OfflineChatModel((chat) => this.offlineAnswer(request, chat.messages.slice(0, -1)));
    const openAi = this.openAi;
    if (openAi === null) {
      return [
        {
          tier: 'primary',
          model: { name: OFFLINE_MODEL_NAME, price: undefined, maxTokens: 0 },
          chat: offline,
        },
      ];
    }
    // "offline-advisor" may also be chosen by name (a test user's model, or an ai_models row).
    const chatFor = (model: CatalogModel): ChatModel =>
      this.catalog.isOffline(model.name) ? offline : openAi;
    const models = await this.catalog.replyModels(request.testUserModel);
    const attempts: Attempt[] = [{ tier: 'primary', model: models.primary, chat: chatFor(models.primary) }];
    if (models.fallback !== null) {
      attempts.push({ tier: 'fallback', model: models.fallback, chat: chatFor(models.fallback) });
    }
    return attempts;
  }

  private messagesFor(attempt: Attempt, request: AnswerRequest): ChatMessage[] {
    const turn = buildUserTurn(request.question, request.messageContext, request.imageAnalysis);
    // The offline advisor reads the turns (for follow-ups) and the question, with no system prompt.
    if (attempt.chat.provider === 'offline') {
      return [...request.history.turns, { role: 'user', content: request.question }];
    }
    const system = buildSystemPrompt({
      gardener: request.gardener,
      now: request.now,
      maxChars: request.maxChars,
      earlierSummary: request.history.earlierSummary,
      references: this.referencesFor(request),
    });
    return [{ role: 'system', content: system }, ...request.history.turns, { role: 'user', content: turn }];
  }

  private async tryModel(
    attempt: Attempt,
    messages: ChatMessage[],
    request: AnswerRequest,
    reservation: SpendReservation,
  ): Promise<Answer | null> {
    const started = Date.now();
    let result: ChatResult;
    try {
      result = await attempt.chat.complete({
        model: attempt.model.name,
        messages,
        ...(attempt.model.maxTokens > 0 ? { maxTokens: attempt.model.maxTokens } : {}),
        temperature: 0.4,
        timeoutMs: this.config.llmTimeoutMs,
      });
    } catch (error) {
      const failure =
        error instanceof LlmError
          ? error
          : new LlmError({ message: error instanceof Error ? error.message : String(error), kind: 'server' });
      await this.spending.settle(reservation, {
        ...this.ownerOf(request),
        purpose: 'reply',
        tier: attempt.tier,
        model: attempt.model.name,
        promptTokens: 0,
        completionTokens: 0,
        cost: 0,
        latencyMs: Date.now() - started,
        error: `${failure.kind}: ${failure.message}`.slice(0, MAX_ERROR_CHARS),
      });
      this.logger.warn(
        `${attempt.tier} model ${attempt.model.name} failed (${failure.kind}): ${failure.message}`,
      );
      return null;
    }
    const cost = costOfResult(result, attempt.model.price);
    const callId = await this.spending.settle(reservation, {
      ...this.ownerOf(request),
      purpose: 'reply',
      tier: attempt.tier,
      model: result.model,
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
      cost,
      latencyMs: Date.now() - started,
      error: null,
    });
    return {
      text: toPlainSms(result.content),
      tier: attempt.tier,
      author: result.model,
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
      cost,
      callId,
    };
  }

  /** The template tier: the photo's analysis when there is one (already paid for), else the offline advisor. */
  private templateOrMinimal(request: AnswerRequest): Answer {
    const none = { promptTokens: 0, completionTokens: 0, cost: 0, callId: null };
    try {
      const text = this.offlineAnswer(request, request.history.turns).trim();
      if (text !== '') return { ...none, text, tier: 'template', author: OFFLINE_MODEL_NAME };
    } catch (error) {
      this.logger.error(`Offline advisor failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { ...none, text: MINIMAL_RESPONSE, tier: 'minimal', author: null };
  }

  /**
   * The offline answer. The advisor cannot see photos: with a photo's analysis (the image model's or
   * the offline analyser's), that analysis answers a question about the photo itself (the advisor
   * would say it cannot see it), and follows the advisor's answer to a gardening question.
   */
  private offlineAnswer(request: AnswerRequest, history: readonly ChatMessage[]): string {
    const photo = request.imageAnalysis?.trim();
    if (!photo) return this.advise(request, history).answer;
    let advice: Advice;
    try {
      advice = this.advise(request, history);
    } catch (error) {
      this.logger.error(`Offline advisor failed: ${error instanceof Error ? error.message : String(error)}`);
      return photo;
    }
    // A clarifying question (or the general entry an image-only text reaches) is replaced by the analysis.
    return advice.kind === 'clarify' || advice.topic === 'general'
      ? photo
      : `${advice.answer.trim()}\n\n${photo}`;
  }

  /** The offline advisor's best entries for the question, filled in for the gardener: grounding for a model. */
  private referencesFor(request: AnswerRequest): string[] {
    try {
      return advisorReferences(this.adviceRequest(request, request.history.turns), REFERENCE_COUNT).map(
        (r) => r.text,
      );
    } catch (error) {
      this.logger.warn(`No reference entries: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  }

  private advise(request: AnswerRequest, history: readonly ChatMessage[]): Advice {
    return this.advisor(this.adviceRequest(request, history));
  }

  private adviceRequest(request: AnswerRequest, history: readonly ChatMessage[]): AdviceRequest {
    const { gardener } = request;
    return {
      question: request.question,
      ...(request.analysis ? { analysis: request.analysis } : {}),
      zipCode: gardener.zipCode,
      zone: gardener.hardinessZone,
      region: gardener.region,
      experienceLevel: gardener.profile.experienceLevel ?? null,
      soilType: gardener.profile.soilType ?? null,
      locationRefused: gardener.locationRefused,
      now: request.now,
      history,
    };
  }

  private ownerOf(request: AnswerRequest) {
    return {
      userId: request.owner.userId,
      conversationId: request.owner.conversationId,
      messageId: null,
      isTestUser: request.owner.isTestUser,
    };
  }
}
