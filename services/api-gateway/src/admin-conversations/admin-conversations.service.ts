import { Injectable } from '@nestjs/common';
import type { ConversationMessage } from '@sprout/contracts';
import { DataSource } from 'typeorm';
import { queryPrepared } from '@sprout/platform';
import { TRIGRAM_MIN_LENGTH, escapeLike, phonePattern } from '../admin-users/search';
import { type JsonText, isoJson } from '@sprout/platform';
import type { ConversationListResponse, Pagination } from '@sprout/contracts';

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
/** A phone search looks up its users' conversations one user at a time when at most this many users match. */
export const PHONE_USERS_CAP = 1000;
/** A conversation's messages: the most recent this many, oldest first. */
export const CONVERSATION_MESSAGES_LIMIT = 500;

const CONVERSATION_COLUMNS = `c.id, c.user_id, c.message_count, c.started_at, c.ended_at, c.last_message_at,
  c.sentiment, c.topics, c.summary, c.key_outcomes, c.next_steps, c.region, c.experience_level,
  c.model_used, c.is_test_user`;

export interface ConversationListOptions {
  testData: boolean;
  page: number;
  limit: number;
  search: string;
  userId?: string | undefined;
}

interface ExplainRow {
  'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }>;
}

/**
 * A search as SQL: `sql(placeholders, limit)` selects `(id, last_message_at)` of matching
 * conversations, newest first and at most `limit` (an SQL expression) per branch, or unordered
 * and unlimited (limit null, for the estimate). $1 is the test-data flag; `params` fill the
 * placeholders. A conversation matches when its search_text (lower-cased summary, region and
 * topics) holds every word of the search, in any order, inside other words too; or, when the
 * search can be part of a phone number (search.ts), when its user's number matches. One LIKE per
 * word lets the planner estimate the matches from each word's statistics. A word of three or more
 * characters lets it choose between the trigram index (few matches) and the covering recency
 * index, read newest first without touching the table (many); a search whose words are all
 * shorter only looks at the newest conversations.
 */
interface SearchMatcher {
  params: string[];
  sql(placeholders: string[], limit: string | null): string;
}

const searchMatcher = (search: string): SearchMatcher => {
  const words = search.split(/\s+/).filter((word) => word !== '');
  const params = words.map((word) => `%${escapeLike(word)}%`);
  const phone = phonePattern(search);
  const byPhone =
    phone !== null && (phone.prefix ? phone.digits.length >= 1 : phone.digits.length >= TRIGRAM_MIN_LENGTH);
  if (phone !== null && byPhone) params.push(phone.pattern);
  const indexable = words.some((word) => word.length >= TRIGRAM_MIN_LENGTH);

  return {
    params,
    sql: (placeholders, limit) => {
      const phoneNumber = placeholders[words.length];
      const ordered = limit === null ? '' : `ORDER BY c.last_message_at DESC, c.id DESC LIMIT ${limit}`;
      const hasWords = placeholders
        .slice(0, words.length)
        .map((word) => `c.search_text LIKE lower(${word})`)
        .join(' AND ');
      const textBranch = indexable
        ? `SELECT c.id, c.last_message_at FROM conversations c
            WHERE c.is_test_user = $1 AND ${hasWords} ${ordered}`
        : `SELECT c.id, c.last_message_at FROM (
             SELECT c.id, c.last_message_at, c.search_text FROM conversations c
              WHERE c.is_test_user = $1 ORDER BY c.last_message_at DESC, c.id DESC LIMIT ${SHORT_SEARCH_WINDOW}
           ) c WHERE ${hasWords} ${ordered}`;
      if (phoneNumber === undefined) return textBranch;
      // The users whose number matches first (the phone indexes), up to a cap: few, and their
      // conversations come from (user_id, last_message_at) one user at a time; many (a broad
      // prefix), and the recency walk meets them quickly. Ordering by recency in one step lets
      // the planner walk every conversation for a rare number it misjudges as common.
      const few = `(SELECT count(*) FROM phone_users) <= ${PHONE_USERS_CAP}`;
      const ofFewUsers = `SELECT c.id, c.last_message_at FROM phone_users pu CROSS JOIN LATERAL (
           SELECT c.id, c.last_message_at FROM conversations c
            WHERE c.user_id = pu.id AND c.is_test_user = $1 ${ordered}) c
         WHERE ${few} ${ordered}`;
      const ofManyUsers = `SELECT c.id, c.last_message_at FROM conversations c JOIN users u ON u.id = c.user_id
         WHERE NOT ${few} AND c.is_test_user = $1 AND u.is_test_user = $1 AND u.phone_number LIKE ${phoneNumber}
         ${ordered}`;
      const phoneUsers = `phone_users AS MATERIALIZED (
         SELECT u.id FROM users u WHERE u.is_test_user = $1 AND u.phone_number LIKE ${phoneNumber}
          LIMIT ${PHONE_USERS_CAP + 1})`;
      return limit === null
        ? `WITH ${phoneUsers} ${textBranch} UNION ALL ${ofFewUsers}`
        : `WITH ${phoneUsers} (${textBranch}) UNION (${ofFewUsers}) UNION (${ofManyUsers})`;
    },
  };
};

/**
 * One ConversationDto (contracts) as JSON, for a page row `c` joined to its user `u`. Key outcomes
 * and next steps are stored one per line (the summary job joins its lists with newlines); list
 * markers are dropped.
 */
const textItemsJson = (column: string): string => `(
  SELECT coalesce(json_agg(item ORDER BY n), '[]')
    FROM (SELECT btrim(regexp_replace(line, '^\\s*(?:[-*•]|\\d+[.)])\\s+', '')) AS item, n
            FROM regexp_split_to_table(${column}, E'\\r?\\n') WITH ORDINALITY AS lines(line, n)) items
   WHERE item <> '')`;

const CONVERSATION_JSON = `json_build_object(
  'id', c.id,
  'userId', c.user_id,
  'phoneNumber', u.phone_number,
  'userActive', u.is_active,
  'messageCount', c.message_count,
  'startTime', ${isoJson('c.started_at')},
  'firstMessageAt', ${isoJson('c.started_at')},
  'endTime', ${isoJson('c.ended_at')},
  'lastMessageAt', ${isoJson('c.last_message_at')},
  'sentiment', c.sentiment,
  'topicsDiscussed', coalesce(to_json(c.topics), '[]'),
  'summary', c.summary,
  'keyOutcomes', ${textItemsJson('c.key_outcomes')},
  'nextSteps', ${textItemsJson('c.next_steps')},
  'region', c.region,
  'experienceLevel', c.experience_level,
  'modelUsed', c.model_used,
  'lastMessage', (SELECT m.content FROM messages m WHERE m.conversation_id = c.id ORDER BY m.created_at DESC LIMIT 1),
  'isTestUser', c.is_test_user)`;

/**
 * Reads of the Messages and Conversations screen and the user panel. One round trip per answer;
 * every list is index-ordered with a LIMIT and a bounded OFFSET, and every count is a rollup
 * (all conversations), a per-user index range, or a capped count (search).
 */
@Injectable()
export class AdminConversationsQueryService {
  constructor(private readonly dataSource: DataSource) {}

  /** The page of conversations, newest activity first; null when `userId` names no user. */
  async list(options: ConversationListOptions): Promise<JsonText<ConversationListResponse> | null> {
    const { testData, page, limit, search, userId } = options;
    const searching = userId === undefined && search !== '';
    const window = searching ? SEARCH_WINDOW : BROWSE_WINDOW;
    const offset = (page - 1) * limit;
    const rows = Math.max(0, Math.min(limit, window - offset));

    // $1 is the test-data flag, except for one user's conversations: those are all of the
    // user's own kind, so the panel shows them whichever mode the console is in.
    const params: unknown[] = userId === undefined ? [testData] : [];
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
          WHERE c.user_id = ${user} ${order} LIMIT ${lim} OFFSET ${off}`),
      ];
      totalSql = `SELECT count(*) FROM conversations c WHERE c.user_id = ${user}`;
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
      ctes = [`matches AS MATERIALIZED (${matcher.sql(placeholders, `${param(walked)}::int`)})`];
      totalSql = 'SELECT count(*) FROM matches';
    }

    type ListRow = { total_count: string; user_exists: boolean; conversations: string };
    let row: ListRow | undefined;
    if (searching) {
      // Planned for its words, this statement finds the page's ids only; their JSON comes from
      // a prepared statement, so the planner's work stays small.
      const found: Array<{ total_count: string; ids: string[] | null }> = await this.dataSource.query(
        `WITH ${ctes.join(', ')}
         SELECT (${totalSql}) AS total_count,
                (SELECT array_agg(p.id) FROM (SELECT m.id FROM matches m
                   ORDER BY m.last_message_at DESC, m.id DESC LIMIT ${lim} OFFSET ${off}) p) AS ids`,
        params,
      );
      const head = found[0];
      if (head !== undefined)
        row = { ...head, user_exists: true, conversations: await this.conversationsJson(head.ids ?? []) };
    } else {
      // Browsing and one user's list are fixed statements, prepared.
      const result = await queryPrepared<ListRow>(
        this.dataSource,
        `WITH ${ctes.join(', ')}
         SELECT (${totalSql}) AS total_count, ${userExistsSql} AS user_exists,
                (SELECT coalesce(json_agg(${CONVERSATION_JSON} ORDER BY c.last_message_at DESC, c.id DESC), '[]')::text
                   FROM page c JOIN users u ON u.id = c.user_id) AS conversations`,
        params,
      );
      row = result[0];
    }
    if (row === undefined || !row.user_exists) return null;

    const counted = Number(row.total_count);
    let total = counted;
    let totalIsExact = true;
    if (searching && counted >= walked) {
      // More matches than were walked: a capped count, or the planner's estimate.
      totalIsExact = false;
      total = walked > SEARCH_WINDOW ? SEARCH_WINDOW : Math.max(estimate, counted);
    }
    const pagination: Pagination = {
      page,
      limit,
      total,
      totalPages: Math.max(1, Math.min(Math.ceil(total / limit), Math.ceil(window / limit))),
      totalIsExact,
    };
    return `{"conversations":${row.conversations},"pagination":${JSON.stringify(pagination)}}`;
  }

  /** These conversations as the list's JSON, newest activity first (a prepared statement). */
  private async conversationsJson(ids: string[]): Promise<string> {
    if (ids.length === 0) return '[]';
    const rows = await queryPrepared<{ conversations: string }>(
      this.dataSource,
      `SELECT coalesce(json_agg(${CONVERSATION_JSON} ORDER BY c.last_message_at DESC, c.id DESC), '[]')::text
              AS conversations
         FROM conversations c JOIN users u ON u.id = c.user_id
        WHERE c.id = ANY($1::uuid[])`,
      [ids],
    );
    return rows[0]?.conversations ?? '[]';
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
  async messages(conversationId: string, testData: boolean): Promise<JsonText<ConversationMessage[]> | null> {
    const rows = await queryPrepared<{ messages: JsonText<ConversationMessage[]> }>(
      this.dataSource,
      `SELECT (SELECT coalesce(json_agg(json_build_object(
                 'id', m.id,
                 'content', m.content,
                 'direction', m.direction,
                 'createdAt', ${isoJson('m.created_at')},
                 'status', m.status,
                 'errorMessage', m.error_message,
                 'cost', m.cost::float8,
                 'tokenUsage', m.token_usage,
                 'modelUsed', m.model_used,
                 'isTestUser', m.is_test_user,
                 'imageUrl', m.media -> 0 ->> 'url',
                 'imageAnalysis', m.image_analysis) ORDER BY m.created_at, m.id), '[]')::text
                 FROM (SELECT * FROM messages m
                        WHERE m.conversation_id = c.id AND m.is_test_user = $2
                        ORDER BY m.created_at DESC, m.id DESC
                        LIMIT ${CONVERSATION_MESSAGES_LIMIT}) m) AS messages
         FROM conversations c
        WHERE c.id = $1`,
      [conversationId, testData],
    );
    return rows[0]?.messages ?? null;
  }
}
