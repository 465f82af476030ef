import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { escapeLike, maskSearch, phonePattern } from '../users/search';
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
    const params: unknown[] = [testData];
    const param = (value: unknown): string => `$${params.push(value)}`;
    const words = search.split(/\s+/).filter((word) => word !== '');
    const conditions: string[] = [];
    if (words.length > 0) {
      const text = words.map((w) => `c.search_text LIKE lower(${param(`%${escapeLike(w)}%`)})`).join(' AND ');
      const phone = phonePattern(search);
      conditions.push(
        phone === null ? `(${text})` : `((${text}) OR u.phone_number LIKE ${param(phone.pattern)})`,
      );
    }
    const sql = `SELECT c.id, c.user_id, u.phone_number, u.is_active AS user_active, c.message_count,
        c.started_at, c.ended_at, c.last_message_at, c.sentiment, c.topics, c.region, c.experience_level,
        c.model_used, c.summary
      FROM conversations c JOIN users u ON u.id = c.user_id
     WHERE c.is_test_user = $1 ${conditions.map((c) => `AND ${c}`).join(' ')}
     ORDER BY c.last_message_at DESC, c.id DESC`;
    return this.csv.stream(CONVERSATION_COLUMNS, sql, params, {
      admin,
      export: 'conversations',
      showTestData: testData,
      search: maskSearch(search),
    });
  }

  /** One user's conversations (oldest first) with their messages (oldest first); null for no such user. */
  async userConversations(admin: string, userId: string): Promise<Readable | null> {
    const found: unknown[] = await this.dataSource.query('SELECT 1 FROM users WHERE id = $1', [userId]);
    if (found.length === 0) return null;
    const sql = `SELECT c.id AS conversation_id, c.started_at, c.ended_at, c.summary, u.phone_number,
        m.id AS message_id, m.created_at, m.direction, m.status, m.content, m.cost, m.token_usage, m.model_used
      FROM conversations c JOIN users u ON u.id = c.user_id
      LEFT JOIN messages m ON m.conversation_id = c.id
     WHERE c.user_id = $1
     ORDER BY c.started_at, c.id, m.created_at, m.id`;
    return this.csv.stream(MESSAGE_COLUMNS, sql, [userId], { admin, export: 'user-conversations', userId });
  }
}
