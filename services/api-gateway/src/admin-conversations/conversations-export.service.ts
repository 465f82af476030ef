import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, maskPhoneNumbers } from '@sprout/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { escapeLike, phonePattern } from '../admin-users/search';

/** Rows fetched from the cursor per round trip: memory stays at one batch whatever the export's size. */
export const EXPORT_BATCH_ROWS = 500;

type Row = Record<string, unknown>;

/** A CSV column: its header and the row field it shows; free text is guarded against spreadsheet formulas. */
interface Column {
  header: string;
  field: string;
  text?: boolean;
}

const CONVERSATION_COLUMNS: Column[] = [
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

const MESSAGE_COLUMNS: Column[] = [
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

/** One CSV field (RFC 4180): quoted when needed; text starting like a formula gets a leading quote. */
export const csvField = (value: unknown, text = false): string => {
  if (value === null || value === undefined) return '';
  let out =
    value instanceof Date
      ? value.toISOString()
      : Array.isArray(value)
        ? value.join('; ')
        : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : JSON.stringify(value);
  if (text && /^[=+\-@\t\r]/.test(out)) out = `'${out}`;
  return /[",\r\n]/.test(out) ? `"${out.replace(/"/g, '""')}"` : out;
};

const csvLine = (columns: Column[], row: Row): string =>
  `${columns.map((c) => csvField(row[c.field], c.text)).join(',')}\r\n`;

/** A search for the log: part of a phone number keeps its first four characters only. */
const maskSearch = (search: string): string =>
  phonePattern(search) === null ? maskPhoneNumbers(search) : `${search.trim().slice(0, 4)}***`;

/** Who exports what: the admin's name, the test-data choice and the list's search. */
export interface ExportScope {
  admin: string;
  testData: boolean;
  search: string;
}

/**
 * CSV exports of the Messages screen's list and of one user's conversations with their messages.
 * Rows come through a server-side cursor on one pooled connection, a batch at a time, and go out
 * as the reply reads them: never the whole result in memory. Each export is logged with the admin
 * who took it (phone numbers masked).
 */
@Injectable()
export class ConversationsExportService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
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
    return this.stream(CONVERSATION_COLUMNS, sql, params, {
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
    return this.stream(MESSAGE_COLUMNS, sql, [userId], { admin, export: 'user-conversations', userId });
  }

  private stream(columns: Column[], sql: string, params: unknown[], log: Row): Readable {
    const { dataSource, logger } = this;
    async function* lines(): AsyncGenerator<string> {
      const runner = dataSource.createQueryRunner();
      let rows = 0;
      let finished = false;
      logger.info(log, 'CSV export started');
      try {
        await runner.connect();
        await runner.startTransaction('REPEATABLE READ');
        await runner.query(`DECLARE export_cursor NO SCROLL CURSOR FOR ${sql}`, params);
        yield `${columns.map((c) => c.header).join(',')}\r\n`;
        for (;;) {
          const batch = (await runner.query(`FETCH ${EXPORT_BATCH_ROWS} FROM export_cursor`)) as Row[];
          if (batch.length === 0) break;
          rows += batch.length;
          yield batch.map((row) => csvLine(columns, row)).join('');
        }
        finished = true;
      } finally {
        // Also when the client goes away mid-download: the stream is destroyed and this runs.
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        await runner.release();
        logger.info({ ...log, rows, finished }, finished ? 'CSV export finished' : 'CSV export stopped');
      }
    }
    return Readable.from(lines());
  }
}
