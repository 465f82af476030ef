import { Injectable } from '@nestjs/common';
import type { ConversationMessage } from '@sprout/contracts';
import { DataSource } from 'typeorm';
import { queryPrepared } from '@sprout/platform';
import { TRIGRAM_MIN_LENGTH, escapeLike, phonePattern } from '../users/search';
import { type JsonText, isoJson } from '@sprout/platform';
import type { ConversationListResponse, Pagination } from '@sprout/contracts';

/**
 * Below this planner estimate a search's matches are counted exactly (up to this many): few
 * matches come cheaply from the trigram index. Above it, counting would mean walking thousands of
 * rows per poll, so the total is the planner's estimate (pagination.totalIsExact false).
 */
const SEARCH_EXACT_COUNT_BELOW = 2000;
/**
 * A search whose words are all too short for the trigram index walks the recency index: at most
 * this many conversations per request, then answers the matches found and, when the page is not
 * full, a cursor at the last conversation looked at (the next request goes on from there).
 */
const SHORT_SEARCH_SCAN = 20_000;
/** A phone search looks up its users' conversations one user at a time when at most this many users match. */
const PHONE_USERS_CAP = 1000;
/** A conversation's messages: the most recent this many, oldest first. */
const CONVERSATION_MESSAGES_LIMIT = 500;

const CONVERSATION_COLUMNS = `c.id, c.user_id, c.message_count, c.started_at, c.ended_at, c.last_message_at,
  c.sentiment, c.topics, c.summary, c.key_outcomes, c.next_steps, c.region, c.experience_level,
  c.model_used, c.is_test_user`;

/** A row's place in list order, as pagination.nextCursor: microseconds since 1970 (exact), '_', id. */
const CURSOR_OF = (c: string): string =>
  `(extract(epoch FROM ${c}.last_message_at) * 1000000)::bigint || '_' || ${c}.id`;

/** Where a page starts: after this row in list order (last_message_at DESC, id DESC). */
export interface ListCursor {
  micros: string;
  id: string;
}

/** A cursor as the API takes it (the contract has checked its form). */
export const parseCursor = (cursor: string): ListCursor => {
  const [micros = '', id = ''] = cursor.split('_');
  return { micros, id };
};

export interface ConversationListOptions {
  testData: boolean;
  page: number;
  limit: number;
  search: string;
  userId?: string | undefined;
  /** Keyset paging: the rows after this one; without it, page counts off from the top. */
  cursor?: ListCursor | undefined;
}

interface ExplainRow {
  'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }>;
}

/** How a search's statement reads its matches. */
interface MatchScope {
  /** At most this many per branch (an SQL expression); null: unlimited and unordered, for the estimate. */
  limit: string | null;
  /** Newest first (a page) or in any order (a capped count). */
  ordered: boolean;
  /** SQL condition on `c` for keyset paging, or null. */
  after: string | null;
}

/**
 * A search as SQL: `sql(placeholders, scope)` selects `(id, last_message_at)` of matching
 * conversations. $1 is the test-data flag; `params` fill the placeholders. A conversation matches
 * when its search_text (lower-cased summary, region and topics) holds every word of the search,
 * in any order, inside other words too; or, when the search can be part of a phone number
 * (search.ts), when its user's number matches. One LIKE per word lets the planner estimate the
 * matches from each word's statistics. A word of three or more characters (`indexable`) lets it
 * choose between the trigram index (few matches) and the covering recency index, read newest
 * first without touching the table (many); a search whose words are all shorter walks the
 * recency index alone, SHORT_SEARCH_SCAN conversations per request.
 *
 * With `vocabulary` (words of letters and digits, 3 or more: `wordIndexed`, each with the
 * vocabulary words containing it), those words are looked up in the word index instead
 * (migration 1797000000000): a conversation holds the search word exactly when it holds one of
 * the vocabulary words containing it, and each of those has one posting list, so several common
 * words rare together are found without intersecting huge trigram lists. The other words stay
 * LIKE conditions on the rows found.
 */
interface SearchMatcher {
  params: string[];
  indexable: boolean;
  /** The words the word index can answer (by their position in the search). */
  wordIndexed: string[];
  sql(placeholders: string[], scope: MatchScope): string;
  /**
   * Through the word index without a phone branch: every match, unordered (`sql` reads them all
   * before ordering too), so one scan can give both the page and the capped count. Else null.
   */
  allMatches(placeholders: string[]): string | null;
}

/** Texts not in the word index (too long, or a run of letters over 200): their own partial index. */
const LONG_TEXT = `(length(c.search_text) > 100000 OR c.search_text ~ '[[:alnum:]]{201}')`;
/** Words the word index answers: letters and digits only (ASCII), 3 or more. */
const INDEXED_WORD = /^[a-z0-9]{3,}$/;
/**
 * The word index serves a search the planner expects fewer matches than this for: every match is
 * read and sorted by recency, a cost that grows with the matches, while the recency walk's shrinks
 * (it passes about 20 x conversations / matches rows for a page). At 2M conversations: 425
 * matches 9 ms by the word index; 8,000 matches 33 ms by it, 3.6 ms by the walk.
 */
const WORD_INDEX_BELOW = 3000;
/** A search word inside more vocabulary words than this stays a LIKE (its trigrams are as good). */
const WORD_VOCABULARY_CAP = 500;

const searchMatcher = (search: string, vocabulary?: Map<number, string[]>): SearchMatcher => {
  const words = search.split(/\s+/).filter((word) => word !== '');
  const params = words.map((word) => `%${escapeLike(word)}%`);
  const phone = phonePattern(search);
  const byPhone =
    phone !== null && (phone.prefix ? phone.digits.length >= 1 : phone.digits.length >= TRIGRAM_MIN_LENGTH);
  if (phone !== null && byPhone) params.push(phone.pattern);
  const indexable = words.some((word) => word.length >= TRIGRAM_MIN_LENGTH);
  // The word index's query: per search word, any vocabulary word containing it; the words
  // without a vocabulary stay LIKEs.
  const useWords = vocabulary !== undefined && vocabulary.size > 0;
  // A word in no vocabulary word: only texts outside the word index can hold it.
  const noWordMatch = useWords && [...vocabulary.values()].some((found) => found.length === 0);
  if (useWords && !noWordMatch)
    params.push(
      [...vocabulary.values()].map((found) => `(${found.map((w) => `'${w}'`).join(' | ')})`).join(' & '),
    );

  return {
    params,
    indexable: indexable || byPhone,
    wordIndexed: words.filter((word) => INDEXED_WORD.test(word.toLowerCase())),
    allMatches: (placeholders) => {
      if (!useWords || byPhone) return null;
      const like = (keep: (i: number) => boolean): string[] =>
        placeholders
          .slice(0, words.length)
          .flatMap((word, i) => (keep(i) ? [`c.search_text LIKE lower(${word})`] : []));
      const others = like((i) => !vocabulary.has(i)).map((condition) => `AND ${condition}`);
      const outside = `${LONG_TEXT} AND ${like((i) => vocabulary.has(i)).join(' AND ')}`;
      const inIndex = noWordMatch
        ? `(${outside})`
        : `(search_text_words(c.search_text) @@ ${placeholders[placeholders.length - 1]}::tsquery OR ${outside})`;
      return `SELECT c.id, c.last_message_at FROM conversations c
         WHERE c.is_test_user = $1 AND ${inIndex} ${others.join(' ')}`;
    },
    sql: (placeholders, { limit, ordered, after }) => {
      const phoneNumber = byPhone ? placeholders[words.length] : undefined;
      const tail =
        limit === null ? '' : `${ordered ? 'ORDER BY c.last_message_at DESC, c.id DESC' : ''} LIMIT ${limit}`;
      const since = after === null ? '' : `AND ${after}`;
      const like = (keep: (i: number) => boolean): string[] =>
        placeholders
          .slice(0, words.length)
          .flatMap((word, i) => (keep(i) ? [`c.search_text LIKE lower(${word})`] : []));
      const hasWords = like(() => true).join(' AND ');
      let textBranch: string;
      if (useWords) {
        const query = placeholders[placeholders.length - 1];
        const outside = `${LONG_TEXT} AND ${like((i) => vocabulary.has(i)).join(' AND ')}`;
        const inIndex = noWordMatch
          ? `(${outside})`
          : `(search_text_words(c.search_text) @@ ${query}::tsquery OR ${outside})`;
        const others = like((i) => !vocabulary.has(i)).map((condition) => `AND ${condition}`);
        // Every match first (OFFSET 0 keeps the order and limit out): a walk in recency order
        // would compute search_text_words for each row it passes, which the planner underrates.
        textBranch = `SELECT c.id, c.last_message_at FROM (
             SELECT c.id, c.last_message_at FROM conversations c
              WHERE c.is_test_user = $1 AND ${inIndex} ${others.join(' ')} ${since} OFFSET 0
           ) c ${tail}`;
      } else if (indexable) {
        textBranch = `SELECT c.id, c.last_message_at FROM conversations c
            WHERE c.is_test_user = $1 AND ${hasWords} ${since} ${tail}`;
      } else {
        textBranch = `SELECT c.id, c.last_message_at FROM (
             SELECT c.id, c.last_message_at, c.search_text FROM conversations c
              WHERE c.is_test_user = $1 ${since} ORDER BY c.last_message_at DESC, c.id DESC LIMIT ${SHORT_SEARCH_SCAN}
           ) c WHERE ${hasWords} ${tail}`;
      }
      if (phoneNumber === undefined) return textBranch;
      // The users whose number matches first (the phone indexes), up to a cap: few, and their
      // conversations come from (user_id, last_message_at) one user at a time; many (a broad
      // prefix), and the recency walk meets them quickly. Ordering by recency in one step lets
      // the planner walk every conversation for a rare number it misjudges as common.
      const few = `(SELECT count(*) FROM phone_users) <= ${PHONE_USERS_CAP}`;
      const ofFewUsers = `SELECT c.id, c.last_message_at FROM phone_users pu CROSS JOIN LATERAL (
           SELECT c.id, c.last_message_at FROM conversations c
            WHERE c.user_id = pu.id AND c.is_test_user = $1 ${since} ${tail}) c
         WHERE ${few} ${tail}`;
      const ofManyUsers = `SELECT c.id, c.last_message_at FROM conversations c JOIN users u ON u.id = c.user_id
         WHERE NOT ${few} AND c.is_test_user = $1 AND u.is_test_user = $1 AND u.phone_number LIKE ${phoneNumber}
         ${since} ${tail}`;
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
 * Reads of the Messages and Conversations screen and the user panel. One round trip per page
 * (two or three for a search: the estimate, a capped count, the page). Every list is an index
 * walk in list order with a LIMIT, from the top (a bounded OFFSET) or after a cursor (keyset), so
 * a deep page costs what the first does; every count is a rollup (all conversations), a per-user
 * index range, or a capped count or the planner's estimate (search).
 */
@Injectable()
export class MessagesQueryService {
  constructor(private readonly dataSource: DataSource) {}

  /** The page of conversations, newest activity first; null when `userId` names no user. */
  async list(options: ConversationListOptions): Promise<JsonText<ConversationListResponse> | null> {
    const { testData, page, limit, search, userId, cursor } = options;
    const searching = userId === undefined && search !== '';
    const offset = cursor === undefined ? (page - 1) * limit : 0;

    // $1 is the test-data flag, except for one user's conversations: those are all of the
    // user's own kind, so the panel shows them whichever mode the console is in.
    const params: unknown[] = userId === undefined ? [testData] : [];
    const param = (value: unknown): string => `$${params.push(value)}`;
    const lim = `${param(limit)}::int`;
    const off = `${param(offset)}::int`;
    // One row past the page tells whether there is a next one.
    const fetch = `${param(offset + limit + 1)}::int`;
    // Row comparison in index order: the walk starts right after the cursor's row.
    const after =
      cursor === undefined
        ? null
        : `(c.last_message_at, c.id) < (timestamptz 'epoch' + ${param(cursor.micros)}::bigint * interval '1 microsecond', ${param(cursor.id)}::uuid)`;
    const since = after === null ? '' : `AND ${after}`;
    const order = 'ORDER BY c.last_message_at DESC, c.id DESC';
    const nextCursorSql = (rows: string): string =>
      `(SELECT ${CURSOR_OF('c')} FROM ${rows} c ${order} OFFSET ${off} + ${lim} - 1 LIMIT 1)`;
    const fetchedSql = (rows: string): string => `(SELECT count(*) FROM ${rows})`;

    type ListRow = {
      total_count: string;
      user_exists: boolean;
      conversations: string;
      fetched: string;
      next_cursor: string | null;
      scan_end?: string | null;
    };
    let row: ListRow | undefined;
    let estimate: number | null = null;
    if (searching) {
      // The planner's estimate from each word's statistics (LIKE) gives the total and the path:
      // few matches expected, and the word index finds them; else as before (the trigram index
      // or the recency walk, the planner's choice).
      const byLike = searchMatcher(search);
      estimate = await this.estimateMatches(byLike, testData);
      let matcher = byLike;
      if (byLike.wordIndexed.length > 0 && estimate < WORD_INDEX_BELOW) {
        const vocabulary = await this.vocabulary(search);
        if (vocabulary.size > 0) matcher = searchMatcher(search, vocabulary);
      }
      const placeholders = matcher.params.map(param);
      // Through the word index: every match once (one index scan), the page and the count from it.
      const all = matcher.allMatches(placeholders);
      const foundCte = all === null ? '' : `found AS MATERIALIZED (${all}),`;
      const matches =
        all === null
          ? matcher.sql(placeholders, { limit: fetch, ordered: true, after })
          : `SELECT c.id, c.last_message_at FROM found c ${after === null ? '' : `WHERE ${after}`} ${order} LIMIT ${fetch}`;
      // Few matches by the estimate, and the trigram or phone index to find them: count them
      // (capped; a count that reaches the cap falls back to the estimate). Otherwise the estimate.
      const countSql =
        all !== null && estimate < SEARCH_EXACT_COUNT_BELOW
          ? `(SELECT count(*) FROM (SELECT 1 FROM found LIMIT ${SEARCH_EXACT_COUNT_BELOW + 1}) counted)`
          : matcher.indexable && estimate < SEARCH_EXACT_COUNT_BELOW
            ? `(SELECT count(*) FROM (${matcher.sql(placeholders, {
                limit: `${SEARCH_EXACT_COUNT_BELOW + 1}`,
                ordered: false,
                after: null,
              })}) counted)`
            : 'NULL';
      // Planned for its words, this statement finds the page's ids only; their JSON comes from
      // a prepared statement, so the planner's work stays small.
      // A short-word search's continuation: the last conversation of its window, when the walk
      // stopped there rather than at the oldest conversation.
      const scanEndSql = matcher.indexable
        ? 'NULL'
        : `(SELECT (array_agg(${CURSOR_OF('c')} ${order}))[1]
              FROM (SELECT c.id, c.last_message_at FROM conversations c WHERE c.is_test_user = $1 ${since}
                     ${order} OFFSET ${SHORT_SEARCH_SCAN - 1} LIMIT 2) c
            HAVING count(*) = 2)`;
      const found: Array<{
        total_count: string | null;
        ids: string[] | null;
        fetched: string;
        next_cursor: string | null;
        scan_end: string | null;
      }> = await this.dataSource.query(
        `WITH ${foundCte} matches AS MATERIALIZED (${matches})
           SELECT ${countSql} AS total_count,
                  (SELECT array_agg(p.id) FROM (SELECT c.id FROM matches c ${order} LIMIT ${lim} OFFSET ${off}) p) AS ids,
                  ${fetchedSql('matches')} AS fetched,
                  ${nextCursorSql('matches')} AS next_cursor,
                  ${scanEndSql} AS scan_end`,
        params,
      );
      const head = found[0];
      if (head !== undefined)
        row = {
          ...head,
          total_count: head.total_count ?? '-1',
          user_exists: true,
          conversations: await this.conversationsJson(head.ids ?? []),
        };
    } else {
      let ids: string;
      let totalSql: string;
      let userExistsSql = 'true';
      if (userId !== undefined) {
        const user = param(userId);
        ids = `SELECT c.id FROM conversations c WHERE c.user_id = ${user} ${since} ${order} LIMIT ${fetch}`;
        totalSql = `SELECT count(*) FROM conversations c WHERE c.user_id = ${user}`;
        userExistsSql = `EXISTS (SELECT 1 FROM users WHERE id = ${user})`;
      } else {
        ids = `SELECT c.id FROM conversations c WHERE c.is_test_user = $1 ${since} ${order} LIMIT ${fetch}`;
        totalSql = `SELECT coalesce(sum(count), 0) FROM rollup_totals
          WHERE metric = 'conversations' AND is_test_user = $1`;
      }
      // A deferred join: ids come from a walk in list order (index-only when browsing), and only
      // the page's rows are read in full. Browsing and one user's list are fixed statements, prepared.
      const result = await queryPrepared<ListRow>(
        this.dataSource,
        `WITH walked AS (SELECT ${CONVERSATION_COLUMNS} FROM (${ids}) p JOIN conversations c ON c.id = p.id),
              page AS (SELECT * FROM walked c ${order} LIMIT ${lim} OFFSET ${off})
         SELECT (${totalSql}) AS total_count, ${userExistsSql} AS user_exists,
                (SELECT coalesce(json_agg(${CONVERSATION_JSON} ${order}), '[]')::text
                   FROM page c JOIN users u ON u.id = c.user_id) AS conversations,
                ${fetchedSql('walked')} AS fetched,
                ${nextCursorSql('walked')} AS next_cursor`,
        params,
      );
      row = result[0];
    }
    if (row === undefined || !row.user_exists) return null;

    const fetched = Number(row.fetched);
    const pageFull = fetched > offset + limit;
    // A short-word search that stopped at the end of its window goes on from there.
    const scanEnd = pageFull ? null : (row.scan_end ?? null);
    const hasNext = pageFull || scanEnd !== null;
    const shownUpTo = offset + Math.max(0, Math.min(limit, fetched - offset));
    let total = Number(row.total_count);
    let totalIsExact = true;
    if (estimate !== null) {
      if (cursor === undefined && !hasNext) {
        // Counted off from the top to the last match: exact.
        total = shownUpTo;
      } else if (total < 0 || total > SEARCH_EXACT_COUNT_BELOW) {
        // Not counted, or more matches than the cap: the estimate, at least what was seen.
        totalIsExact = false;
        total = Math.max(estimate, shownUpTo + (hasNext ? 1 : 0));
      }
    }
    const pagination: Pagination = {
      page,
      limit,
      total,
      totalPages: Math.max(1, Math.ceil(total / limit)),
      totalIsExact,
      nextCursor: pageFull ? row.next_cursor : scanEnd,
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

  /**
   * The vocabulary words containing each word of the search that the word index can answer (by
   * the word's position in the search), from the vocabulary's trigram index; a word inside more
   * than WORD_VOCABULARY_CAP of them is left out (it stays a LIKE).
   */
  private async vocabulary(search: string): Promise<Map<number, string[]>> {
    const words = search.split(/\s+/).filter((word) => word !== '');
    const terms = words.map((word) => (INDEXED_WORD.test(word.toLowerCase()) ? word.toLowerCase() : null));
    const rows: Array<{ i: number; words: string[] | null }> = await this.dataSource.query(
      `SELECT t.i::int - 1 AS i,
              (SELECT array_agg(v.word) FROM (SELECT word FROM search_words
                                               WHERE word LIKE '%' || t.term || '%' LIMIT ${WORD_VOCABULARY_CAP + 1}) v) AS words
         FROM unnest($1::text[]) WITH ORDINALITY AS t(term, i)
        WHERE t.term IS NOT NULL`,
      [terms],
    );
    const found = new Map<number, string[]>();
    for (const row of rows) {
      const list = row.words ?? [];
      if (list.length <= WORD_VOCABULARY_CAP) found.set(row.i, list);
    }
    return found;
  }

  /** The planner's estimate of the number of matches (EXPLAIN: planning only, no execution). */
  private async estimateMatches(matcher: SearchMatcher, testData: boolean): Promise<number> {
    const placeholders = matcher.params.map((_, i) => `$${i + 2}`);
    const rows: ExplainRow[] = await this.dataSource.query(
      `EXPLAIN (FORMAT JSON) ${matcher.sql(placeholders, { limit: null, ordered: false, after: null })}`,
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
                 'smsCost', m.sms_cost::float8,
                 'segments', m.segments,
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
