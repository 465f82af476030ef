import { Inject, Injectable } from '@nestjs/common';
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

interface HistoryRow {
  direction: 'inbound' | 'outbound';
  content: string;
  image_analysis: string | null;
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
    const [row] = await this.dataSource.query<Array<{ rows: HistoryRow[] | null; summary: string | null }>>(
      `WITH recent AS (
         SELECT "direction", "content", "image_analysis", "created_at", "id" FROM "messages"
          WHERE "conversation_id" = $1 AND "id" <> $2 AND "created_at" <= $3 AND "kind" <> 'consent'
          ORDER BY "created_at" DESC, "id" DESC
          LIMIT $4)
       SELECT
         (SELECT json_agg(json_build_object('direction', "direction", 'content', "content",
                 'image_analysis', "image_analysis") ORDER BY "created_at" DESC, "id" DESC) FROM recent) AS rows,
         (SELECT "summary" FROM "conversations"
           WHERE "user_id" = $5 AND "id" <> $1 AND "summary" IS NOT NULL
           ORDER BY "last_message_at" DESC
           LIMIT 1) AS summary`,
      [inbound.conversationId, inbound.id, inbound.createdAt, MAX_ROWS, inbound.userId],
    );
    const rows = row?.rows ?? [];
    const turns = rows
      .reverse()
      .map((row): ChatMessage =>
        row.direction === 'inbound'
          ? { role: 'user', content: buildUserTurn(row.content, null, row.image_analysis) }
          : { role: 'assistant', content: row.content },
      );
    return {
      turns: fitHistory(turns, this.config.historyTokenBudget),
      earlierSummary: row?.summary ?? null,
    };
  }
}
