import { Injectable } from '@nestjs/common';
import type {
  ConversationDto,
  ConversationMessage,
  MessageDirectionValue,
  SentimentLabel,
} from '@sprout/contracts';
import { DataSource } from 'typeorm';
import { TRIGRAM_MIN_LENGTH, escapeLike, phonePattern } from '../admin-users/search';
import type { AdminConversationListResponse } from './dto';

/** Browsing pages through the this-many most recent conversations (an index-only walk). */
export const BROWSE_WINDOW = 10_000;
/** A search pages through its this-many most recent matches. */
export const SEARCH_WINDOW = 1000;
/**
 * Below this planner estimate a search's matches are counted exactly (up to SEARCH_WINDOW): few
 * matches come cheaply from the trigram index. Above it, counting would mean walking thousands of
 * rows per poll, so the total is the planner's estimate (pagination.totalIsExact false).
 */
export const SEARCH_EXACT_COUNT_BELOW = 2000;
/** Searches whose words are all too short for the trigram index look at this many newest conversations. */
export const SHORT_SEARCH_WINDOW = 1000;
/** A conversation's messages: the most recent this many, oldest first. */
export const CONVERSATION_MESSAGES_LIMIT = 500;

const CONVERSATION_COLUMNS = `c.id, c.user_id, c.message_count, c.started_at, c.ended_at, c.last_message_at,
  c.sentiment, c.topics, c.summary, c.key_outcomes, c.next_steps, c.region, c.experience_level,
  c.model_used, c.is_test_user`;

/** The expression of idx_conversations_search_text_trgm (migration AdminInsightIndexes). */
const searchText = (alias: string): string =>
  `conversation_search_text(${alias}.summary, ${alias}.region, ${alias}.topics)`;

interface ConversationRow {
  id: string;
  user_id: string;
  message_count: number;
  started_at: Date;
  ended_at: Date | null;
  last_message_at: Date;
  sentiment: SentimentLabel | null;
  topics: string[] | null;
  summary: string | null;
  key_outcomes: string | null;
  next_steps: string | null;
  region: string | null;
  experience_level: string | null;
  model_used: string | null;
  is_test_user: boolean;
  phone_number: string;
  is_active: boolean;
  last_message: string | null;
}

interface ListRow extends Partial<ConversationRow> {
  total_count: string;
  user_exists: boolean;
}

interface MessageRow {
  conversation_id: string;
  id: string | null;
  content: string;
  direction: MessageDirectionValue;
  created_at: Date;
  status: string | null;
  error_message: string | null;
  cost: string;
  token_usage: number;
  model_used: string | null;
  is_test_user: boolean;
  image_url: string | null;
}

export interface ConversationListOptions {
  testData: boolean;
  page: number;
  limit: number;
  search: string;
  userId?: string | undefined;
}

const BULLET = /^\s*(?:[-*•]|\d+[.)])\s+/;

/** Key outcomes and next steps are stored as text: a JSON array, or one item per line. */
export const textItems = (value: string | null): string[] => {
  if (value === null || value.trim() === '') return [];
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed.map(String).filter((item) => item.trim() !== '');
    } catch {
      // Not JSON after all: read it as lines.
    }
  }
  return trimmed
    .split(/\r?\n/)
    .map((line) => line.replace(BULLET, '').trim())
    .filter((line) => line !== '');
};

interface ExplainRow {
  'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }>;
}

/**
 * A search as SQL: `sql(placeholders, limit)` selects `(id, last_message_at)` of matching
 * conversations, newest first and at most `limit` (an SQL expression) per branch, or unordered
 * and unlimited (limit null, for the estimate). $1 is the test-data flag; `params` fill the
 * placeholders. A conversation matches when its summary, region and topics contain the search's
 * words in the order given (any case, anything between them: one LIKE pattern, which the planner
 * estimates well and the trigram index serves), or, when the search can be part of a phone number
 * (search.ts), when its user's number matches. Each branch is trigram-indexed or index-ordered;
 * a search with no word long enough for the trigram index only looks at the newest conversations.
 */
interface SearchMatcher {
  params: string[];
  sql(placeholders: string[], limit: string | null): string;
}

const searchMatcher = (search: string): SearchMatcher => {
  const words = search.split(/\s+/).filter((word) => word !== '');
  const params = [`%${words.map(escapeLike).join('%')}%`];
  const phone = phonePattern(search);
  const byPhone =
    phone !== null && (phone.prefix ? phone.digits.length >= 1 : phone.digits.length >= TRIGRAM_MIN_LENGTH);
  if (phone !== null && byPhone) params.push(phone.pattern);
  const indexable = words.some((word) => word.length >= TRIGRAM_MIN_LENGTH);

  return {
    params,
    sql: ([text, phoneNumber], limit) => {
      const ordered = limit === null ? '' : `ORDER BY c.last_message_at DESC, c.id DESC LIMIT ${limit}`;
      const textBranch = indexable
        ? `SELECT c.id, c.last_message_at FROM conversations c
            WHERE c.is_test_user = $1 AND ${searchText('c')} ILIKE ${text} ${ordered}`
        : `SELECT c.id, c.last_message_at FROM (
             SELECT c.id, c.last_message_at, c.summary, c.region, c.topics FROM conversations c
              WHERE c.is_test_user = $1 ORDER BY c.last_message_at DESC, c.id DESC LIMIT ${SHORT_SEARCH_WINDOW}
           ) c WHERE ${searchText('c')} ILIKE ${text} ${ordered}`;
      if (phoneNumber === undefined) return textBranch;
      const phoneBranch = `SELECT c.id, c.last_message_at FROM users u JOIN conversations c ON c.user_id = u.id
         WHERE u.is_test_user = $1 AND c.is_test_user = $1 AND u.phone_number LIKE ${phoneNumber}
         ${ordered}`;
      return limit === null
        ? `${textBranch} UNION ALL ${phoneBranch}`
        : `(${textBranch}) UNION (${phoneBranch})`;
    },
  };
};

const toConversation = (row: ConversationRow): ConversationDto => ({
  id: row.id,
  userId: row.user_id,
  phoneNumber: row.phone_number,
  userActive: row.is_active,
  messageCount: row.message_count,
  startTime: row.started_at.toISOString(),
  firstMessageAt: row.started_at.toISOString(),
  endTime: row.ended_at?.toISOString() ?? null,
  lastMessageAt: row.last_message_at.toISOString(),
  sentiment: row.sentiment,
  topicsDiscussed: row.topics ?? [],
  summary: row.summary,
  keyOutcomes: textItems(row.key_outcomes),
  nextSteps: textItems(row.next_steps),
  region: row.region,
  experienceLevel: row.experience_level,
  modelUsed: row.model_used,
  lastMessage: row.last_message,
  isTestUser: row.is_test_user,
});

const newestFirst = (a: ConversationRow, b: ConversationRow): number => {
  const diff = b.last_message_at.getTime() - a.last_message_at.getTime();
  if (diff !== 0) return diff;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
};

/**
 * Reads of the Messages and Conversations screen and the user panel. One round trip per answer;
 * every list is index-ordered with a LIMIT and a bounded OFFSET, and every count is a rollup
 * (all conversations), a per-user index range, or a capped count (search).
 */
@Injectable()
export class AdminConversationsQueryService {
  constructor(private readonly dataSource: DataSource) {}

  /** The page of conversations, newest activity first; null when `userId` names no user. */
  async list(options: ConversationListOptions): Promise<AdminConversationListResponse | null> {
    const { testData, page, limit, search, userId } = options;
    const searching = userId === undefined && search !== '';
    const window = searching ? SEARCH_WINDOW : BROWSE_WINDOW;
    const offset = (page - 1) * limit;
    const rows = Math.max(0, Math.min(limit, window - offset));

    const params: unknown[] = [testData];
    const param = (value: unknown): string => `$${params.push(value)}`;
    const lim = `${param(rows)}::int`;
    const off = `${param(rows === 0 ? 0 : offset)}::int`;
    const order = 'ORDER BY c.last_message_at DESC, c.id DESC';
    // The page is a deferred join: ids come from a walk in list order (index-only when browsing),
    // and only the page's rows are read in full.
    const pageOf = (ids: string): string =>
      `page AS (SELECT ${CONVERSATION_COLUMNS} FROM (${ids}) p JOIN conversations c ON c.id = p.id)`;

    let ctes: string[];
    let totalSql: string;
    let userExistsSql = 'true';
    let estimate = 0;
    let walked = 0;
    if (userId !== undefined) {
      const user = param(userId);
      ctes = [
        pageOf(`SELECT c.id FROM conversations c
          WHERE c.user_id = ${user} AND c.is_test_user = $1 ${order} LIMIT ${lim} OFFSET ${off}`),
      ];
      totalSql = `SELECT count(*) FROM conversations c WHERE c.user_id = ${user} AND c.is_test_user = $1`;
      userExistsSql = `EXISTS (SELECT 1 FROM users WHERE id = ${user})`;
    } else if (!searching) {
      ctes = [
        pageOf(`SELECT c.id FROM conversations c
          WHERE c.is_test_user = $1 ${order} LIMIT ${lim} OFFSET ${off}`),
      ];
      totalSql = `SELECT coalesce(sum(count), 0) FROM rollup_totals
        WHERE metric = 'conversations' AND is_test_user = $1`;
    } else {
      const matcher = searchMatcher(search);
      estimate = await this.estimateMatches(matcher, testData);
      // Few matches: walk them all (up to the window) for an exact count. Many: walk just past
      // the page, which tells whether more exist, and let the estimate stand for the total.
      walked = estimate < SEARCH_EXACT_COUNT_BELOW ? SEARCH_WINDOW + 1 : offset + rows + 1;
      const placeholders = matcher.params.map(param);
      ctes = [
        `matches AS MATERIALIZED (${matcher.sql(placeholders, `${param(walked)}::int`)})`,
        pageOf(`SELECT m.id FROM matches m
          ORDER BY m.last_message_at DESC, m.id DESC LIMIT ${lim} OFFSET ${off}`),
      ];
      totalSql = 'SELECT count(*) FROM matches';
    }

    const result: ListRow[] = await this.dataSource.query(
      `WITH ${ctes.join(', ')}
       SELECT t.total_count, t.user_exists, r.*
         FROM (SELECT (${totalSql}) AS total_count, ${userExistsSql} AS user_exists) t
         LEFT JOIN LATERAL (
           SELECT p.*, u.phone_number, u.is_active, lm.content AS last_message
             FROM page p
             JOIN users u ON u.id = p.user_id
             LEFT JOIN LATERAL (
               SELECT m.content FROM messages m
                WHERE m.conversation_id = p.id ORDER BY m.created_at DESC LIMIT 1
             ) lm ON true
         ) r ON true`,
      params,
    );
    const head = result[0];
    if (head === undefined || !head.user_exists) return null;

    const counted = Number(head.total_count);
    let total = counted;
    let totalIsExact = true;
    if (searching && counted >= walked) {
      // More matches than were walked: a capped count, or the planner's estimate.
      totalIsExact = false;
      total = walked > SEARCH_WINDOW ? SEARCH_WINDOW : Math.max(estimate, counted);
    }
    const conversations = result
      .filter((r): r is ListRow & ConversationRow => typeof r.id === 'string')
      .sort(newestFirst)
      .map(toConversation);
    return {
      conversations,
      pagination: {
        page,
        limit,
        total,
        totalPages: Math.max(1, Math.min(Math.ceil(total / limit), Math.ceil(window / limit))),
        totalIsExact,
      },
    };
  }

  /** The planner's estimate of the number of matches (EXPLAIN: planning only, no execution). */
  private async estimateMatches(matcher: SearchMatcher, testData: boolean): Promise<number> {
    const placeholders = matcher.params.map((_, i) => `$${i + 2}`);
    const rows: ExplainRow[] = await this.dataSource.query(
      `EXPLAIN (FORMAT JSON) ${matcher.sql(placeholders, null)}`,
      [testData, ...matcher.params],
    );
    return Math.round(rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
  }

  /** The conversation's latest messages of the chosen kind, oldest first; null when it does not exist. */
  async messages(conversationId: string, testData: boolean): Promise<ConversationMessage[] | null> {
    const rows: MessageRow[] = await this.dataSource.query(
      `SELECT c.id AS conversation_id, m.*
         FROM conversations c
         LEFT JOIN LATERAL (
           SELECT m.id, m.content, m.direction, m.created_at, m.status, m.error_message, m.cost,
                  m.token_usage, m.model_used, m.is_test_user, m.media -> 0 ->> 'url' AS image_url
             FROM messages m
            WHERE m.conversation_id = c.id AND m.is_test_user = $2
            ORDER BY m.created_at DESC, m.id DESC
            LIMIT ${CONVERSATION_MESSAGES_LIMIT}
         ) m ON true
        WHERE c.id = $1`,
      [conversationId, testData],
    );
    if (rows.length === 0) return null;
    return rows
      .filter((row): row is MessageRow & { id: string } => row.id !== null)
      .sort(
        (a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      )
      .map((row) => ({
        id: row.id,
        content: row.content,
        direction: row.direction,
        createdAt: row.created_at.toISOString(),
        status: row.status,
        errorMessage: row.error_message,
        cost: Number(row.cost),
        tokenUsage: row.token_usage,
        modelUsed: row.model_used,
        isTestUser: row.is_test_user,
        imageUrl: row.image_url,
      }));
  }
}
