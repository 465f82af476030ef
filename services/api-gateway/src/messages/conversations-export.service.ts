import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import {
  conversationsExportStatement,
  escapeLike,
  phonePattern,
  userConversationsExportStatement,
  userExists,
} from '@sprout/domain';
import { DataSource } from 'typeorm';
import { maskSearch } from '../users/search';
import { type CsvColumn, CsvExporter } from '../common/csv-export';

const CONVERSATION_COLUMNS: CsvColumn[] = [
  { header: 'conversation_id', field: 'id' },
  { header: 'user_id', field: 'user_id' },
  { header: 'phone_number', field: 'phone_number' },
  { header: 'user_active', field: 'user_active' },
  { header: 'message_count', field: 'message_count' },
  { header: 'start_time', field: 'started_at' },
  { header: 'end_time', field: 'ended_at' },
  { header: 'last_message_at', field: 'last_message_at' },
  { header: 'sentiment', field: 'sentiment' },
  { header: 'topics', field: 'topics', text: true },
  { header: 'region', field: 'region', text: true },
  { header: 'experience_level', field: 'experience_level', text: true },
  { header: 'model_used', field: 'model_used', text: true },
  { header: 'summary', field: 'summary', text: true },
];

const MESSAGE_COLUMNS: CsvColumn[] = [
  { header: 'conversation_id', field: 'conversation_id' },
  { header: 'conversation_start_time', field: 'started_at' },
  { header: 'conversation_end_time', field: 'ended_at' },
  { header: 'conversation_summary', field: 'summary', text: true },
  { header: 'phone_number', field: 'phone_number' },
  { header: 'message_id', field: 'message_id' },
  { header: 'created_at', field: 'created_at' },
  { header: 'direction', field: 'direction' },
  { header: 'status', field: 'status' },
  { header: 'content', field: 'content', text: true },
  { header: 'cost', field: 'cost' },
  { header: 'token_usage', field: 'token_usage' },
  { header: 'model_used', field: 'model_used', text: true },
];

/** Who exports what: the admin's name, the test-data choice and the list's search. */
export interface ExportScope {
  admin: string;
  testData: boolean;
  search: string;
}

/**
 * CSV exports of the Messages screen's list and of one user's conversations with their messages,
 * streamed by the CsvExporter; each is logged with the admin who took it (phone numbers masked).
 */
@Injectable()
export class ConversationsExportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly csv: CsvExporter,
  ) {}

  /** Every conversation of the chosen kind matching the search (the list's rule), newest activity first. */
  conversations({ admin, testData, search }: ExportScope): Readable {
    const words = search.split(/\s+/).filter((word) => word !== '');
    const statement = conversationsExportStatement({
      testData,
      wordPatterns: words.map((w) => `%${escapeLike(w)}%`),
      phonePattern: phonePattern(search)?.pattern ?? null,
    });
    return this.csv.stream(CONVERSATION_COLUMNS, statement, {
      admin,
      export: 'conversations',
      showTestData: testData,
      search: maskSearch(search),
    });
  }

  /** One user's conversations (oldest first) with their messages (oldest first); null for no such user. */
  async userConversations(admin: string, userId: string): Promise<Readable | null> {
    if (!(await userExists(this.dataSource, userId))) return null;
    return this.csv.stream(MESSAGE_COLUMNS, userConversationsExportStatement(userId), {
      admin,
      export: 'user-conversations',
      userId,
    });
  }
}
