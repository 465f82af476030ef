import { Inject, Injectable } from '@nestjs/common';
import { conversationHistory } from '@sprout/domain';
import { type ChatMessage, fitHistory } from '@sprout/llm';
import { CONFIG } from '@sprout/platform';
import { DataSource } from 'typeorm';
import { type AiResponderConfig } from '../config';
import { buildUserTurn } from './system-prompt';

export interface ConversationHistory {
  /** Earlier turns of this conversation, oldest first, within HISTORY_TOKEN_BUDGET. */
  turns: ChatMessage[];
  /** The summary of the user's previous conversation, if one was written. */
  earlierSummary: string | null;
}

/** Never read more rows than a budget could hold. */
const MAX_ROWS = 40;

/** The conversation so far, as chat turns within a token budget measured with the tokenizer. */
@Injectable()
export class ConversationHistoryService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: AiResponderConfig,
  ) {}

  async load(inbound: {
    id: string;
    userId: string;
    conversationId: string;
    createdAt: Date;
  }): Promise<ConversationHistory> {
    // One statement: the recent turns (newest first) and the last summary of an earlier conversation.
    const { rows, earlierSummary } = await conversationHistory(this.dataSource, inbound, MAX_ROWS);
    const turns = rows
      .reverse()
      .map((row): ChatMessage =>
        row.direction === 'inbound'
          ? { role: 'user', content: buildUserTurn(row.content, null, row.image_analysis) }
          : { role: 'assistant', content: row.content },
      );
    return {
      turns: fitHistory(turns, this.config.historyTokenBudget),
      earlierSummary,
    };
  }
}
