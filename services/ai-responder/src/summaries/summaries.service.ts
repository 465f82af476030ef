import { Inject, Injectable, Logger } from '@nestjs/common';
import { conversationById, conversationTranscript, userById, writeConversationSummary } from '@sprout/domain';
import {
  type ChatMessage,
  type ChatModel,
  type ChatResult,
  LlmError,
  costOfResult,
  countChatTokens,
  worstCaseCost,
} from '@sprout/llm';
import { CONFIG, type Job, JobQueues } from '@sprout/platform';
import { DataSource } from 'typeorm';
import { CHAT_MODEL } from '../answering/answering.service';
import { ModelCatalogService } from '../answering/model-catalog.service';
import { delimitGardenerText } from '../answering/system-prompt';
import { type AiResponderConfig, summaryDelayOf } from '../config';
import { overallSentiment } from '../profile/profile-learning';
import { SpendingService } from '../spending/spending.service';
import {
  SUMMARY_SYSTEM_PROMPT,
  type SummaryText,
  type TranscriptMessage,
  deterministicSummary,
  parseModelSummary,
  transcriptText,
  transcriptTopics,
} from './summary-rules';

type SummaryOutcome = 'summarized' | 'not-idle' | 'up-to-date' | 'missing';

export interface SummaryResult {
  outcome: SummaryOutcome;
  /** Who wrote the summary: a model name, "rules" (no model), or null when nothing was written. */
  writtenBy: string | null;
}

const MAX_TRANSCRIPT_ROWS = 200;
const SUMMARY_MAX_TOKENS = 400;
/** Timers fire a little early or late; a conversation this close to its idle time counts as idle. */
const IDLE_TOLERANCE_MS = 100;

/**
 * Conversation summaries: the reply pipeline re-schedules one job per
 * conversation after each message (deduplicated, delayed SUMMARY_DELAY_MS); when it runs on a
 * conversation that has gone idle it writes summary, key outcomes, next steps, topics, sentiment and
 * end time, using the primary model when one is available and the daily spending limit admits the
 * call, else rules.
 */
@Injectable()
export class SummariesService {
  private readonly logger = new Logger(SummariesService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    private readonly catalog: ModelCatalogService,
    private readonly spending: SpendingService,
    @Inject(CHAT_MODEL) private readonly openAi: ChatModel | null,
    @Inject(CONFIG) private readonly config: AiResponderConfig,
  ) {}

  /** (Re-)schedules the summary of a conversation: one delayed job per conversation, pushed back on each call. */
  async schedule(conversationId: string, delayMs: number = summaryDelayOf(this.config)): Promise<void> {
    await this.queues.enqueue('conversation.summarize', { conversationId }, { delay: delayMs });
  }

  async summarize(conversationId: string, job?: Job): Promise<SummaryResult> {
    const conversation = await conversationById(this.dataSource, conversationId);
    if (conversation === null) return { outcome: 'missing', writtenBy: null };
    const untilIdle = this.untilIdle(conversation.lastMessageAt);
    if (untilIdle > 0) {
      await this.reschedule(conversationId, untilIdle, job);
      return { outcome: 'not-idle', writtenBy: null };
    }
    if (conversation.summarizedAt !== null && conversation.summarizedAt >= conversation.lastMessageAt) {
      return { outcome: 'up-to-date', writtenBy: null };
    }

    const rows = await conversationTranscript(this.dataSource, conversationId, MAX_TRANSCRIPT_ROWS);
    const user = await userById(this.dataSource, conversation.userId);
    const topics = transcriptTopics(conversation.topics, rows);
    const sentiment = overallSentiment(
      rows.flatMap((row) => (row.direction === 'inbound' && row.sentiment !== null ? [row.sentiment] : [])),
    );
    const where = [
      conversation.region ?? user?.region,
      user?.hardinessZone ? `zone ${user.hardinessZone}` : null,
    ]
      .filter(Boolean)
      .join(', ');
    const owner = { userId: conversation.userId, conversationId, isTestUser: conversation.isTestUser };
    const fromModel = rows.length === 0 ? null : await this.modelSummary(rows, owner);
    const text: SummaryText = fromModel?.text ?? deterministicSummary(rows, topics, where || null);

    // Only if no message arrived meanwhile (checked under the user's lock, as the inbound path takes it).
    const written = await writeConversationSummary(this.dataSource, conversation, {
      summary: text.summary,
      keyOutcomes: text.keyOutcomes.join('\n') || null,
      nextSteps: text.nextSteps.join('\n') || null,
      topics,
      sentiment,
    });
    if (!written) {
      await this.reschedule(conversationId, summaryDelayOf(this.config), job);
      return { outcome: 'not-idle', writtenBy: null };
    }
    return { outcome: 'summarized', writtenBy: fromModel?.model ?? 'rules' };
  }

  private untilIdle(lastMessageAt: Date): number {
    const idleAt = lastMessageAt.getTime() + this.config.conversationIdleTimeoutMs;
    const remaining = idleAt - Date.now();
    return remaining > IDLE_TOLERANCE_MS ? remaining : 0;
  }

  /**
   * Runs again later. While this job is active its deduplication key would swallow the new job, so
   * the key is released first (only if it is still this job's).
   */
  private async reschedule(conversationId: string, delayMs: number, job?: Job): Promise<void> {
    await job?.removeDeduplicationKey();
    await this.schedule(conversationId, delayMs);
  }

  /**
   * The primary model's summary; null to use the rules: no OpenAI key, the offline advisor live,
   * the daily spending limit reached (the call's worst case is reserved first, like a reply's),
   * the model failed or did not answer JSON.
   */
  private async modelSummary(
    rows: readonly TranscriptMessage[],
    owner: { userId: string; conversationId: string; isTestUser: boolean },
  ): Promise<{ text: SummaryText; model: string } | null> {
    if (this.openAi === null) return null;
    const { primary } = await this.catalog.replyModels(null);
    if (this.catalog.isOffline(primary.name)) return null;
    const transcript = rows.map((row) =>
      row.direction === 'inbound' ? { ...row, content: delimitGardenerText(row.content) } : row,
    );
    const messages: ChatMessage[] = [
      { role: 'system', content: SUMMARY_SYSTEM_PROMPT },
      { role: 'user', content: transcriptText(transcript) },
    ];
    const reservation = await this.spending.reserve({
      purpose: 'summary',
      worstCase: worstCaseCost(primary.price, countChatTokens(messages), SUMMARY_MAX_TOKENS),
      deadlineMs: this.config.llmTimeoutMs,
    });
    if (reservation === null) return null;
    const started = Date.now();
    const record = { ...owner, purpose: 'summary' as const, tier: 'primary' as const, messageId: null };
    let result: ChatResult;
    try {
      result = await this.openAi.complete({
        model: primary.name,
        messages,
        maxTokens: SUMMARY_MAX_TOKENS,
        temperature: 0.2,
        timeoutMs: this.config.llmTimeoutMs,
      });
    } catch (error) {
      const failure = error instanceof LlmError ? `${error.kind}: ${error.message}` : String(error);
      await this.spending.settle(reservation, {
        ...record,
        model: primary.name,
        promptTokens: 0,
        completionTokens: 0,
        cost: 0,
        latencyMs: Date.now() - started,
        error: failure.slice(0, 500),
      });
      if (!(error instanceof LlmError)) throw error;
      this.logger.warn(`Summary model ${primary.name} failed (${error.kind}); using rules`);
      return null;
    }
    await this.spending.settle(reservation, {
      ...record,
      model: result.model,
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
      cost: costOfResult(result, primary.price),
      latencyMs: Date.now() - started,
      error: null,
    });
    const text = parseModelSummary(result.content);
    if (text === null) this.logger.warn(`Summary model ${result.model} did not answer JSON; using rules`);
    return text === null ? null : { text, model: result.model };
  }
}
