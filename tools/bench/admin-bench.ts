// `npm run bench:admin`: the admin Users and Messages endpoints on 1M users, 2M conversations
// and 10M messages. Seeds (or reuses) a database of its own, boots api-gateway in-process on
// loopback with a logged-in admin session, then for every endpoint measures p50/p95 under
// concurrent polling (HTTP, clients in a worker thread) and the same answer's hand-written SQL
// run straight through pg at the same concurrency. Prints a table and writes
// bench-results/admin.json.
//
// Options: --scale=<fraction of the full size, default 1> --db=<database, default sprout_bench>
// --reseed --seed-only --concurrency=<8> --requests=<800 per endpoint and mode> --max-seconds=<30 per run>
// --only=<text: measure just the endpoints whose name contains it>
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Client } from 'pg';
import { USER_SORTS, encodeUserCursor, keyTextSql, runMigrations } from '@sprout/domain';
import { Redis } from 'ioredis';
import { USER_SORT_KEYS, api, type UserSortKey, type UserSortOrder } from '@sprout/contracts';

import {
  databaseUrl as urlOf,
  readSeedState,
  seed,
  sizeFor,
  type SeedSize,
  type SeedState,
} from '../seed/bulk';
import { startApiGateway } from './api-gateway';

const ROOT = path.resolve(__dirname, '../..');
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const P95_TARGET_MS = 50;
/** Requests per endpoint and mode before measuring. */
const WARM_UP_REQUESTS = 200;
/** Measured requests are split into this many alternating HTTP / SQL rounds. */
const MEASURE_ROUNDS = 4;
const RATIO_TARGET = 2;

interface Options {
  scale: number;
  database: string;
  reseed: boolean;
  seedOnly: boolean;
  only: string | undefined;
  concurrency: number;
  requests: number;
  maxSeconds: number;
}

const parseOptions = (argv: string[]): Options => {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match?.[1]) throw new Error(`Unknown argument ${arg}`);
    flags.set(match[1], match[2] ?? 'true');
  }
  const number = (name: string, fallback: number): number => {
    const raw = flags.get(name);
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
    return value;
  };
  // --users=200000 is --scale=0.2 (users, conversations and messages in the same proportions).
  const scale = flags.has('users') ? number('users', 1_000_000) / 1_000_000 : number('scale', 1);
  return {
    scale,
    database:
      flags.get('db') ?? (scale === 1 ? 'sprout_bench' : `sprout_bench_${String(scale).replace('.', '_')}`),
    reseed: flags.has('reseed'),
    seedOnly: flags.has('seed-only'),
    only: flags.get('only'),
    concurrency: Math.round(number('concurrency', 8)),
    requests: Math.round(number('requests', 800)),
    maxSeconds: number('max-seconds', 30),
  };
};

const log = (message: string): void => {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};

// ---------------------------------------------------------------------------------------------
// What is measured

interface Statement {
  /** Set: run as a named prepared statement, as the gateway runs the same answer's statement. */
  name?: string;
  text: string;
  values: unknown[];
}

interface Job {
  url: string;
  /** One statement, or several run in turn on one connection. */
  sql: Statement | Statement[];
}

interface Scenario {
  name: string;
  /** The request the console makes, as a template for the table. */
  route: string;
  jobs: (i: number) => Job;
  /**
   * The gateway runs this answer's statement prepared (a fixed text, queryPrepared): the baseline
   * is then also measured prepared, beside the statement planned on every call.
   */
  prepared?: boolean;
  /** A plain query for the same figure without rollups or bounds, run a few times for contrast. */
  naive?: Statement;
}

interface Samples {
  userIds: string[];
  heavyUserIds: string[];
  conversationIds: string[];
  userSearches: string[];
  conversationSearches: string[];
  /** The planner's estimate of each conversation search's matches (decides exact count or not). */
  searchEstimates: Map<string, number>;
  /** Per sort and order: the key and id of the row 60% down the order (a deep keyset page starts after it). */
  deepUserRows: Map<string, { key: string | null; id: string }>;
}

const MESSAGE_METRICS = `('messages_inbound', 'messages_reply', 'messages_proactive')`;
const USER_COLS = `u.id, u.phone_number, u.created_at, u.is_active, u.last_message_at, u.profile_completion_score,
  u.zip_code, u.region, u.profile, u.is_test_user, u.total_messages, u.total_cost, u.average_sentiment`;
const CONV_COLS = `c.id, c.user_id, c.message_count, c.started_at, c.ended_at, c.last_message_at, c.sentiment,
  c.topics, c.summary, c.key_outcomes, c.next_steps, c.region, c.experience_level, c.model_used, c.is_test_user`;

/** A users row `u` as the API's user fields (json_build_object arguments). */
const USER_FIELDS_JSON = `
  'id', u.id, 'phoneNumber', u.phone_number,
  'createdAt', to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'isActive', u.is_active,
  'lastMessageAt', to_char(u.last_message_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'profileCompletionScore', u.profile_completion_score, 'zipCode', u.zip_code, 'isTestUser', u.is_test_user,
  'profile', json_build_object(
    'region', coalesce(CASE WHEN jsonb_typeof(u.profile -> 'region') = 'string' AND btrim(u.profile ->> 'region') <> ''
                            THEN u.profile ->> 'region' END, u.region),
    'growingContext', CASE WHEN jsonb_typeof(u.profile -> 'growingContext') = 'string'
                                AND btrim(u.profile ->> 'growingContext') <> '' THEN u.profile ->> 'growingContext' END,
    'preferences', CASE jsonb_typeof(u.profile -> 'preferences')
      WHEN 'array' THEN coalesce((SELECT jsonb_agg(p) FROM jsonb_array_elements(u.profile -> 'preferences') p
                                   WHERE jsonb_typeof(p) = 'string'), '[]'::jsonb)
      WHEN 'string' THEN jsonb_build_array(u.profile -> 'preferences') ELSE '[]'::jsonb END,
    'conversationStyle', CASE WHEN jsonb_typeof(u.profile -> 'conversationStyle') = 'string'
                                   AND btrim(u.profile ->> 'conversationStyle') <> '' THEN u.profile ->> 'conversationStyle' END)`;
/** ... and AdminUserListItem: with the list's analytics. */
const USER_JSON = `${USER_FIELDS_JSON},
  'analytics', json_build_object('totalMessages', u.total_messages, 'totalCost', u.total_cost::float8,
                                 'averageSentiment', u.average_sentiment)`;
/** Ids of the 100 most recent users (matching `where`), read from the recency index. */
const recentUserIds = (where: string): string => `(
  (SELECT id FROM users WHERE is_test_user = false AND last_message_at IS NOT NULL ${where}
    ORDER BY last_message_at DESC, id DESC LIMIT 100)
  UNION ALL
  (SELECT id FROM users WHERE is_test_user = false AND last_message_at IS NULL ${where}
    ORDER BY last_message_at DESC, id DESC LIMIT 100) LIMIT 100)`;
const USER_ORDER = `u.last_message_at DESC NULLS LAST, u.id DESC`;
/** The Users table's page size (web-admin asks for this many rows at a time). */
const USER_PAGE = 100;

const sortOrders = (): Array<[UserSortKey, UserSortOrder]> =>
  USER_SORT_KEYS.flatMap((sort) =>
    (['asc', 'desc'] as const).map((order): [UserSortKey, UserSortOrder] => [sort, order]),
  );

/**
 * The Users table on every column: the first page, and a deep keyset page (after the row 60% down
 * the order), each in both directions (taking turns). Baseline: a page read in index order from
 * the (key, id) after the cursor, with the total from the rollup.
 */
const userSortScenarios = (samples: Samples): Scenario[] =>
  USER_SORT_KEYS.flatMap((sort): Scenario[] => {
    const definition = USER_SORTS[sort];
    const orderOf = (i: number): UserSortOrder => (i % 2 === 0 ? 'asc' : 'desc');
    const baseline = (order: UserSortOrder, after: { key: string | null; id: string } | null): Statement => {
      const dir = order === 'asc' ? 'ASC' : 'DESC';
      const cmp = order === 'asc' ? '>' : '<';
      const keyed = after !== null && after.key !== null;
      return {
        text: `SELECT (SELECT sum(count) FROM rollup_totals WHERE metric = 'users' AND is_test_user = false) AS total,
                 (SELECT json_agg(json_build_object(${USER_JSON}) ORDER BY p.k ${dir}, p.id ${dir})::text
                    FROM (SELECT u.id, ${definition.sql} AS k FROM users u
                           WHERE u.is_test_user = false AND ${definition.sql} IS NOT NULL
                             ${keyed ? `AND (${definition.sql}, u.id) ${cmp} ($1::${definition.type}, $2::uuid)` : ''}
                           ORDER BY ${definition.sql} ${dir}, u.id ${dir} LIMIT ${USER_PAGE}) p
                    JOIN users u ON u.id = p.id) AS users`,
        values: keyed ? [after.key, after.id] : [],
      };
    };
    return [
      {
        name: `users: sort ${sort}, first page`,
        route: `GET /api/admin/users?sort=${sort}&order={asc,desc}&limit=${USER_PAGE}`,
        prepared: true,
        jobs: (i) => ({
          url: `/api/admin/users?search=&showTestUsers=false&sort=${sort}&order=${orderOf(i)}&limit=${USER_PAGE}`,
          sql: baseline(orderOf(i), null),
        }),
        ...(sort === 'totalCost'
          ? {
              naive: {
                text: `SELECT ${USER_COLS}, count(*) OVER () FROM users u WHERE NOT u.is_test_user
                        ORDER BY u.total_cost DESC LIMIT ${USER_PAGE}`,
                values: [],
              },
            }
          : {}),
      },
      {
        name: `users: sort ${sort}, deep page`,
        route: `GET /api/admin/users?sort=${sort}&order={asc,desc}&limit=${USER_PAGE}&cursor={60% down}`,
        prepared: true,
        jobs: (i) => {
          const order = orderOf(i);
          const row = samples.deepUserRows.get(`${sort} ${order}`);
          if (row === undefined) throw new Error(`no deep row for ${sort} ${order}`);
          const cursor = encodeUserCursor({ sort, order, key: row.key, id: row.id });
          return {
            url: `/api/admin/users?search=&showTestUsers=false&sort=${sort}&order=${order}&limit=${USER_PAGE}&cursor=${cursor}`,
            sql: baseline(order, row),
          };
        },
      },
    ];
  });

const iso = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const lines = (column: string): string => `(SELECT coalesce(json_agg(item ORDER BY n), '[]') FROM (
    SELECT btrim(regexp_replace(line, '^\\s*(?:[-*•]|\\d+[.)])\\s+', '')) AS item, n
      FROM regexp_split_to_table(${column}, E'\\r?\\n') WITH ORDINALITY AS l(line, n)) i WHERE item <> '')`;
/** A conversation `c` with its user `u` as the API's ConversationDto. */
const CONVERSATION_JSON = `json_build_object('id', c.id, 'userId', c.user_id, 'phoneNumber', u.phone_number,
  'userActive', u.is_active, 'messageCount', c.message_count, 'startTime', ${iso('c.started_at')},
  'firstMessageAt', ${iso('c.started_at')}, 'endTime', ${iso('c.ended_at')}, 'lastMessageAt', ${iso('c.last_message_at')},
  'sentiment', c.sentiment, 'topicsDiscussed', coalesce(to_json(c.topics), '[]'), 'summary', c.summary,
  'keyOutcomes', ${lines('c.key_outcomes')}, 'nextSteps', ${lines('c.next_steps')}, 'region', c.region,
  'experienceLevel', c.experience_level, 'modelUsed', c.model_used,
  'lastMessage', (SELECT content FROM messages m WHERE m.conversation_id = c.id ORDER BY m.created_at DESC LIMIT 1),
  'isTestUser', c.is_test_user)`;

const floorHour = (d: Date): Date => new Date(Math.floor(d.getTime() / HOUR) * HOUR);
const utcDay = (d: Date): Date => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
const pick = <T>(values: T[], i: number): T => {
  const value = values[i % values.length];
  if (value === undefined) throw new Error('no samples');
  return value;
};
const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const phoneLike = (search: string): string => {
  const digits = search.replace(/\D/g, '');
  return search.startsWith('+') ? `+${digits}%` : `%${digits}%`;
};

/**
 * A conversation search by hand: every word in search_text (lower-cased summary, region and
 * topics: trigram-indexed, and carried by a recency index), or the user's phone when the text can be part of one, matching
 * users first (at most 1000: their conversations one user at a time; more: the recency walk).
 * `matches(limit)` lists (id, last_message_at), newest first per branch (or unordered for an estimate).
 * `byWords`: the words of 3 or more letters and digits through the word index instead (the
 * vocabulary words containing each, then search_text_words(search_text), migration
 * 1797000000000), every match before the order, as the gateway does when the planner expects
 * under 3,000 matches.
 */
const searchSql = (
  term: string,
  byWords = false,
): { values: string[]; matches: (limit: number | null) => string } => {
  const words = term.split(/\s+/).filter((w) => w !== '');
  const indexed = words.map((w) => /^[a-z0-9]{3,}$/.test(w.toLowerCase()));
  const useWords = byWords && indexed.some(Boolean);
  const digits = term.replace(/\D/g, '');
  const phone = /^[\d\s+().-]+$/.test(term) && digits.length >= (term.startsWith('+') ? 1 : 3);
  const values = words.map((w) => `%${likeEscape(w.toLowerCase())}%`);
  const phoneParam = `$${values.length + 1}`;
  if (phone) values.push(phoneLike(term));
  const queryParam = `$${values.length + 1}`;
  if (useWords)
    values.push(
      `{${words
        .filter((_, i) => indexed[i])
        .map((w) => w.toLowerCase())
        .join(',')}}`,
    );
  const wordQuery = `(SELECT string_agg('(' || coalesce((SELECT string_agg(quote_literal(v.word), ' | ')
       FROM search_words v WHERE v.word LIKE '%' || t || '%'), quote_literal('-')) || ')', ' & ')
       FROM unnest(${queryParam}::text[]) t)::tsquery`;
  const like = (keep: (i: number) => boolean): string[] =>
    words.flatMap((_, i) => (keep(i) ? [`search_text LIKE $${i + 1}`] : []));
  const textCondition = useWords
    ? [
        `(search_text_words(search_text) @@ ${wordQuery} OR (length(search_text) > 100000 OR search_text ~ '[[:alnum:]]{201}') AND ${like((i) => indexed[i] === true).join(' AND ')})`,
        ...like((i) => indexed[i] !== true),
      ].join(' AND ')
    : like(() => true).join(' AND ');
  return {
    values,
    matches: (limit) => {
      const order = limit === null ? '' : `ORDER BY last_message_at DESC, id DESC LIMIT ${limit}`;
      const text = useWords
        ? `SELECT id, last_message_at FROM (SELECT id, last_message_at FROM conversations
            WHERE is_test_user = false AND ${textCondition} OFFSET 0) c ${order}`
        : `SELECT id, last_message_at FROM conversations
        WHERE is_test_user = false AND ${textCondition} ${order}`;
      if (!phone) return text;
      const few = `SELECT c.id, c.last_message_at FROM phone_users pu CROSS JOIN LATERAL (
          SELECT id, last_message_at FROM conversations WHERE user_id = pu.id AND is_test_user = false ${order}) c
        WHERE (SELECT count(*) FROM phone_users) <= 1000 ${order}`;
      const many = `SELECT c.id, c.last_message_at FROM conversations c JOIN users u ON u.id = c.user_id
        WHERE (SELECT count(*) FROM phone_users) > 1000 AND c.is_test_user = false AND u.is_test_user = false
          AND u.phone_number LIKE ${phoneParam} ${limit === null ? '' : `ORDER BY c.last_message_at DESC, c.id DESC LIMIT ${limit}`}`;
      const users = `phone_users AS MATERIALIZED (SELECT id FROM users WHERE is_test_user = false AND phone_number LIKE ${phoneParam} LIMIT 1001)`;
      return limit === null
        ? `WITH ${users} ${text} UNION ALL ${few}`
        : `WITH ${users} (${text}) UNION (${few}) UNION (${many})`;
    },
  };
};

/** The hand-written SQL baselines: as few statements as the answer needs, as an expert would write them. */
const scenarios = (samples: Samples): Scenario[] => {
  const now = new Date();
  const dayAgo = new Date(now.getTime() - DAY);
  const weekAgo = new Date(now.getTime() - 7 * DAY);
  const weekHead = new Date(floorHour(weekAgo).getTime() + HOUR);
  const today = utcDay(now);
  const yesterday = new Date(today.getTime() - DAY);
  const dayHead = floorHour(dayAgo);
  const dayHeadEnd = new Date(dayHead.getTime() + HOUR);
  const activitySince = new Date(today.getTime() - 29 * DAY);

  // A page: ids from a walk in list order (index-only on the covering index when browsing), rows
  // read in full only for the page, with the user and the latest message.
  const conversationPage = (ids: string, total: string, ctes = ''): string => `
    WITH ${ctes} page AS (SELECT ${CONV_COLS} FROM (${ids}) p JOIN conversations c ON c.id = p.id)
    SELECT (${total}) AS total,
           (SELECT json_agg(${CONVERSATION_JSON} ORDER BY c.last_message_at DESC, c.id DESC)::text
              FROM page c JOIN users u ON u.id = c.user_id) AS conversations`;
  const CONVERSATIONS_TOTAL = `SELECT sum(count) FROM rollup_totals WHERE metric = 'conversations' AND is_test_user = false`;

  return [
    {
      name: 'users: stat cards',
      route: 'GET /api/admin/users/stats/overview?showTestUsers=false',
      prepared: true,
      jobs: () => ({
        url: '/api/admin/users/stats/overview?showTestUsers=false',
        sql: {
          text: `SELECT
            (SELECT sum(count) FROM rollup_totals WHERE metric = 'users' AND is_test_user = false) AS total_users,
            (SELECT count(*) FROM users WHERE is_test_user = false AND last_message_at >= $1) AS active_users,
            (SELECT coalesce(sum(count), 0) FROM rollup_hourly WHERE metric = 'users' AND is_test_user = false AND hour >= $3)
              + (SELECT count(*) FROM users WHERE created_at >= $2 AND created_at < $3 AND is_test_user = false) AS new_users,
            (SELECT sum(count) FROM rollup_totals WHERE metric IN ${MESSAGE_METRICS} AND is_test_user = false) AS messages`,
          values: [dayAgo, weekAgo, weekHead],
        },
      }),
      naive: {
        text: `SELECT (SELECT count(*) FROM users WHERE NOT is_test_user),
                      (SELECT count(DISTINCT user_id) FROM messages WHERE NOT is_test_user AND created_at >= $1),
                      (SELECT count(*) FROM users WHERE NOT is_test_user AND created_at >= $2),
                      (SELECT count(*) FROM messages WHERE NOT is_test_user)`,
        values: [dayAgo, weekAgo],
      },
    },
    ...userSortScenarios(samples),
    {
      name: 'users: phone search',
      route: 'GET /api/admin/users?search={digits}&showTestUsers=false',
      jobs: (i) => {
        const term = pick(samples.userSearches, i);
        return {
          url: `/api/admin/users?search=${encodeURIComponent(term)}&showTestUsers=false`,
          sql: {
            // Matches first (phone indexes), capped: few, and the page is their newest; many,
            // and the recency walk finds the page.
            text: `WITH m AS MATERIALIZED (SELECT id, last_message_at, created_at FROM users
                                            WHERE is_test_user = false AND phone_number LIKE $1 LIMIT 1001),
                        n AS MATERIALIZED (SELECT count(*) AS n FROM m),
                        page AS (
                          (SELECT u.* FROM users u JOIN (SELECT id FROM m u ORDER BY ${USER_ORDER} LIMIT 100) p ON p.id = u.id
                            WHERE (SELECT n FROM n) <= 1000)
                          UNION ALL
                          (SELECT u.* FROM users u JOIN ${recentUserIds('AND phone_number LIKE $1')} p ON p.id = u.id
                            WHERE (SELECT n FROM n) > 1000))
                   SELECT (SELECT n FROM n) AS total,
                          (SELECT json_agg(json_build_object(${USER_JSON}) ORDER BY ${USER_ORDER})::text FROM page u) AS users`,
            values: [phoneLike(term)],
          },
        };
      },
    },
    {
      name: 'users: one user (detail)',
      route: 'GET /api/admin/users/{id}',
      prepared: true,
      jobs: (i) => {
        const id = i % 5 === 0 ? pick(samples.heavyUserIds, i) : pick(samples.userIds, i);
        return {
          url: `/api/admin/users/${id}`,
          sql: {
            text: `SELECT json_build_object(${USER_FIELDS_JSON}, 'region', u.region, 'hardinessZone', u.hardiness_zone,
                     'analytics', json_build_object(
                       'totalMessages', u.total_messages,
                       'conversationSessions', (SELECT count(*) FROM conversations c WHERE c.user_id = u.id),
                       'totalTokens', u.total_tokens,
                       'avgTokensPerMessage', CASE WHEN u.total_messages > 0
                         THEN round(u.total_tokens::numeric / u.total_messages, 1)::float8 ELSE 0 END,
                       'totalCost', u.total_cost::float8,
                       'averageSentiment', u.average_sentiment,
                       'recentActivity', (SELECT coalesce(json_agg(d ORDER BY d.date DESC), '[]') FROM (
                          SELECT to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, count(*) AS messages,
                                 sum(m.cost)::float8 AS cost
                            FROM messages m WHERE m.user_id = u.id AND m.created_at >= $2 GROUP BY 1) d)))::text
                   FROM users u WHERE u.id = $1`,
            values: [id, activitySince],
          },
        };
      },
    },
    {
      name: 'conversations: page 1-5',
      route: 'GET /api/admin/conversations?page={1-5}&limit=20&search=&showTestData=false',
      prepared: true,
      jobs: (i) => {
        const page = 1 + (i % 5);
        return {
          url: `/api/admin/conversations?page=${page}&limit=20&search=&showTestData=false`,
          sql: {
            text: conversationPage(
              `SELECT id FROM conversations WHERE is_test_user = false
                ORDER BY last_message_at DESC, id DESC LIMIT 20 OFFSET ${(page - 1) * 20}`,
              CONVERSATIONS_TOTAL,
            ),
            values: [],
          },
        };
      },
      naive: { text: `SELECT count(*) FROM conversations WHERE NOT is_test_user`, values: [] },
    },
    {
      name: 'conversations: deep page (500)',
      route: 'GET /api/admin/conversations?page=500&limit=20&showTestData=false',
      prepared: true,
      jobs: () => ({
        url: '/api/admin/conversations?page=500&limit=20&search=&showTestData=false',
        sql: {
          text: conversationPage(
            `SELECT id FROM conversations WHERE is_test_user = false
              ORDER BY last_message_at DESC, id DESC LIMIT 20 OFFSET 9980`,
            CONVERSATIONS_TOTAL,
          ),
          values: [],
        },
      }),
    },
    {
      name: 'conversations: search',
      route: 'GET /api/admin/conversations?page=1&limit=20&search={text}&showTestData=false',
      jobs: (i) => {
        const term = pick(samples.conversationSearches, i);
        const estimate = samples.searchEstimates.get(term) ?? 0;
        const search = searchSql(term);
        const found = estimate < 3000 ? searchSql(term, true) : search;
        // Few matches (by the planner's estimate): all of them, up to 1001, for an exact count;
        // many: the page and one more, the estimate standing for the total.
        const walk = estimate < 2000 ? 1001 : 21;
        return {
          url: `/api/admin/conversations?page=1&limit=20&search=${encodeURIComponent(term)}&showTestData=false`,
          sql: [
            { text: `EXPLAIN (FORMAT JSON) ${search.matches(null)}`, values: search.values },
            {
              text: conversationPage(
                'SELECT id FROM matches ORDER BY last_message_at DESC, id DESC LIMIT 20',
                'SELECT count(*) FROM matches',
                `matches AS MATERIALIZED (${found.matches(walk)}),`,
              ),
              values: found.values,
            },
          ],
        };
      },
    },
    {
      name: "conversations: one user's (panel)",
      route: 'GET /api/admin/conversations?userId={id}&showTestData=false',
      prepared: true,
      jobs: (i) => {
        const id = i % 5 === 0 ? pick(samples.heavyUserIds, i) : pick(samples.userIds, i);
        return {
          url: `/api/admin/conversations?userId=${id}&showTestData=false`,
          sql: {
            text: conversationPage(
              `SELECT id FROM conversations WHERE user_id = $1 ORDER BY last_message_at DESC, id DESC LIMIT 100`,
              `SELECT count(*) FROM conversations WHERE user_id = $1`,
            ),
            values: [id],
          },
        };
      },
    },
    {
      name: 'conversations: messages',
      route: 'GET /api/admin/conversations/{id}/messages?showTestData=false',
      prepared: true,
      jobs: (i) => {
        const id = pick(samples.conversationIds, i);
        return {
          url: `/api/admin/conversations/${id}/messages?showTestData=false`,
          sql: {
            text: `SELECT (SELECT coalesce(json_agg(json_build_object('id', m.id, 'content', m.content,
                       'direction', m.direction, 'createdAt', ${iso('m.created_at')}, 'status', m.status,
                       'errorMessage', m.error_message, 'cost', m.cost::float8, 'tokenUsage', m.token_usage,
                       'modelUsed', m.model_used, 'isTestUser', m.is_test_user, 'imageUrl', m.media -> 0 ->> 'url')
                       ORDER BY m.created_at, m.id), '[]')::text
                     FROM (SELECT * FROM messages m WHERE m.conversation_id = c.id AND m.is_test_user = false
                            ORDER BY m.created_at DESC, m.id DESC LIMIT 500) m) AS messages
                     FROM conversations c WHERE c.id = $1`,
            values: [id],
          },
        };
      },
    },
    {
      name: 'messages: stat cards',
      route: 'GET /api/admin/messages/stats?showTestData=false',
      prepared: true,
      jobs: () => ({
        url: '/api/admin/messages/stats?showTestData=false',
        sql: {
          text: `WITH h AS (SELECT metric, hour, count FROM rollup_hourly
                             WHERE metric IN ${MESSAGE_METRICS} AND is_test_user = false AND hour >= $1),
                      head AS (SELECT created_at, rollup_message_metric(direction, kind) AS metric FROM messages
                                WHERE is_test_user = false AND created_at >= $3 AND created_at < $4)
                 SELECT (SELECT sum(count) FROM rollup_totals WHERE metric IN ${MESSAGE_METRICS} AND is_test_user = false) AS total,
                        (SELECT sum(count) FROM rollup_totals WHERE metric = 'messages_failed' AND is_test_user = false) AS failed,
                        (SELECT sum(count) FROM h WHERE hour >= $2) AS today,
                        (SELECT coalesce(sum(count), 0) FROM h WHERE hour < $3) + (SELECT count(*) FROM head WHERE created_at < $5) AS yesterday,
                        (SELECT coalesce(sum(count), 0) FROM h WHERE metric = 'messages_inbound' AND hour >= $4)
                          + (SELECT count(*) FROM head WHERE created_at >= $5 AND metric = 'messages_inbound') AS inbound,
                        (SELECT coalesce(sum(count), 0) FROM h WHERE metric = 'messages_reply' AND hour >= $4)
                          + (SELECT count(*) FROM head WHERE created_at >= $5 AND metric = 'messages_reply') AS replies`,
          values: [yesterday, today, dayHead, dayHeadEnd, dayAgo],
        },
      }),
      naive: {
        text: `SELECT (SELECT count(*) FROM messages WHERE NOT is_test_user),
                      (SELECT count(*) FROM messages WHERE NOT is_test_user AND created_at >= $1),
                      (SELECT count(*) FROM messages WHERE NOT is_test_user AND created_at >= $2 AND created_at < $3),
                      (SELECT count(*) FILTER (WHERE direction = 'outbound') FROM messages WHERE NOT is_test_user AND created_at >= $3),
                      (SELECT count(*) FROM messages WHERE NOT is_test_user AND status IN ('failed', 'undelivered'))`,
        values: [today, yesterday, dayAgo],
      },
    },
    {
      // The dashboard's cards read the same tables (indexes or rollups for it too, never a scan).
      name: 'dashboard: metrics',
      route: 'GET /api/dashboard/metrics?showTestData=false',
      prepared: true,
      jobs: () => ({
        url: '/api/dashboard/metrics?showTestData=false',
        sql: {
          text: `SELECT
            (SELECT count(*) FROM users WHERE is_test_user = false AND last_message_at >= $1) AS active_users,
            t.messages_today, t.avg_response_ms,
            (SELECT coalesce(sum(cost), 0) FROM llm_calls WHERE is_test_user = false AND created_at >= $2) AS todays_cost,
            (SELECT count(*) FROM beta_signups) AS signups_total,
            (SELECT count(*) FROM beta_signups WHERE status = 'pending') AS signups_pending
            FROM (SELECT count(*) AS messages_today,
                         avg(response_time_ms) FILTER (WHERE direction = 'outbound') AS avg_response_ms
                    FROM messages WHERE is_test_user = false AND created_at >= $2) t`,
          values: [dayAgo, today],
        },
      }),
    },
  ];
};

// ---------------------------------------------------------------------------------------------
// Measuring

interface RunResult {
  latencies: number[];
  errors: string[];
  wallMs: number;
}

class LoadWorker {
  private readonly worker: Worker;
  private seq = 0;
  private readonly pending = new Map<number, (message: Record<string, unknown>) => void>();

  constructor(data: { baseUrl: string; cookie: string; databaseUrl: string; concurrency: number }) {
    this.worker = new Worker(path.join(__dirname, 'load-worker.mjs'), { workerData: data });
    this.worker.on('message', (message: Record<string, unknown>) => {
      const id = message.id as number;
      this.pending.get(id)?.(message);
      this.pending.delete(id);
    });
  }

  private send(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = ++this.seq;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ ...message, id });
    });
  }

  async run(kind: 'http' | 'sql', concurrency: number, jobs: unknown[]): Promise<RunResult> {
    const reply = await this.send({ type: 'run', kind, concurrency, jobs });
    if (typeof reply.fatal === 'string') throw new Error(reply.fatal);
    return reply as unknown as RunResult;
  }

  async close(): Promise<void> {
    await this.send({ type: 'close' });
    await this.worker.terminate();
  }
}

const quantile = (sorted: number[], q: number): number => {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? NaN;
};

const summarize = (latencies: number[]): { p50: number; p95: number; max: number; n: number } => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: sorted[sorted.length - 1] ?? NaN,
    n: sorted.length,
  };
};

const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;

interface ScenarioResult {
  name: string;
  route: string;
  requests: number;
  http: { p50: number; p95: number; max: number; requestsPerSecond: number; errors: number };
  sql: { p50: number; p95: number; max: number };
  /** The baseline run prepared, where the gateway prepares the answer's statement. */
  sqlPrepared?: { p50: number; p95: number; max: number };
  ratioPreparedP50?: number;
  ratioP50: number;
  ratioP95: number;
  naiveSqlMs?: number;
  meetsTargets: boolean;
  firstError?: string;
}

/** A job's baseline statement run as a named prepared statement, as the gateway runs it. */
const preparedBaseline = (job: Job): Statement | Statement[] =>
  Array.isArray(job.sql)
    ? job.sql
    : { ...job.sql, name: `bench_${createHash('sha1').update(job.sql.text).digest('hex').slice(0, 24)}` };

/** Jobs for one scenario: as many as fit `maxSeconds` at the warm-up's pace, at most `requests`. */
const measure = async (
  worker: LoadWorker,
  scenario: Scenario,
  options: Options,
  naiveClient: Client,
): Promise<ScenarioResult> => {
  // Warm-up: JIT, plan and connection caches on both sides (its timings are not kept).
  const warm = Array.from({ length: Math.min(WARM_UP_REQUESTS, options.requests) }, (_, i) =>
    scenario.jobs(i),
  );
  const warmHttp = await worker.run(
    'http',
    options.concurrency,
    warm.map((j) => ({ url: j.url })),
  );
  if (warmHttp.errors.length > 0)
    throw new Error(`${scenario.name}: ${warmHttp.errors[0] ?? 'request failed'}`);
  await worker.run(
    'sql',
    options.concurrency,
    warm.map((j) => j.sql),
  );
  if (scenario.prepared === true) await worker.run('sql', options.concurrency, warm.map(preparedBaseline));
  const perRequestMs = warmHttp.wallMs / warm.length;
  const count = Math.max(
    options.concurrency * 4,
    Math.min(options.requests, Math.floor((options.maxSeconds * 1000) / Math.max(perRequestMs, 0.01))),
  );
  const jobs = Array.from({ length: count }, (_, i) => scenario.jobs(i + 1000));
  // HTTP and SQL take turns in rounds, so a change in the machine's other load weighs on both alike.
  const httpLatencies: number[] = [];
  const sqlLatencies: number[] = [];
  const preparedLatencies: number[] = [];
  const httpErrors: string[] = [];
  let httpWallMs = 0;
  const roundSize = Math.ceil(count / MEASURE_ROUNDS);
  for (let start = 0; start < count; start += roundSize) {
    const round = jobs.slice(start, start + roundSize);
    const http = await worker.run(
      'http',
      options.concurrency,
      round.map((j) => ({ url: j.url })),
    );
    httpLatencies.push(...http.latencies);
    httpErrors.push(...http.errors);
    httpWallMs += http.wallMs;
    sqlLatencies.push(
      ...(
        await worker.run(
          'sql',
          options.concurrency,
          round.map((j) => j.sql),
        )
      ).latencies,
    );
    if (scenario.prepared === true)
      preparedLatencies.push(
        ...(await worker.run('sql', options.concurrency, round.map(preparedBaseline))).latencies,
      );
  }
  const http = { wallMs: httpWallMs, errors: httpErrors };
  const h = summarize(httpLatencies);
  const s = summarize(sqlLatencies);
  const p = scenario.prepared === true ? summarize(preparedLatencies) : undefined;

  let naiveSqlMs: number | undefined;
  if (scenario.naive) {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await naiveClient.query(scenario.naive.text, scenario.naive.values);
      times.push(performance.now() - started);
    }
    naiveSqlMs = round(summarize(times).p50, 1);
  }
  const ratioP50 = h.p50 / s.p50;
  const ratioP95 = h.p95 / s.p95;
  return {
    name: scenario.name,
    route: scenario.route,
    requests: count,
    http: {
      p50: round(h.p50),
      p95: round(h.p95),
      max: round(h.max),
      requestsPerSecond: round((count / http.wallMs) * 1000, 0),
      errors: http.errors.length,
    },
    sql: { p50: round(s.p50), p95: round(s.p95), max: round(s.max) },
    ...(p === undefined
      ? {}
      : {
          sqlPrepared: { p50: round(p.p50), p95: round(p.p95), max: round(p.max) },
          ratioPreparedP50: round(h.p50 / p.p50),
        }),
    ratioP50: round(ratioP50),
    ratioP95: round(ratioP95),
    ...(naiveSqlMs === undefined ? {} : { naiveSqlMs }),
    meetsTargets: http.errors.length === 0 && h.p95 < P95_TARGET_MS && ratioP50 <= RATIO_TARGET,
    ...(http.errors[0] ? { firstError: http.errors[0] } : {}),
  };
};

const sampleParameters = async (client: Client): Promise<Samples> => {
  const ids = async (sql: string): Promise<string[]> =>
    (await client.query<{ id: string }>(sql)).rows.map((r) => r.id);
  const userIds = await ids(
    `SELECT id FROM users TABLESAMPLE SYSTEM (1) REPEATABLE (42) WHERE NOT is_test_user LIMIT 50`,
  );
  // The busiest users (most conversations and messages): the users table's top counters.
  const heavyUserIds = await ids(
    `SELECT id FROM users WHERE NOT is_test_user AND last_message_at IS NOT NULL
      ORDER BY total_messages DESC LIMIT 10`,
  );
  const conversationIds = await ids(
    `SELECT id FROM conversations TABLESAMPLE SYSTEM (0.1) REPEATABLE (42) WHERE NOT is_test_user LIMIT 50`,
  );
  const phones = (
    await client.query<{ phone_number: string }>(
      `SELECT phone_number FROM users TABLESAMPLE SYSTEM (1) REPEATABLE (7) WHERE NOT is_test_user LIMIT 4`,
    )
  ).rows.map((r) => r.phone_number);
  const full = phones[0] ?? '+15035550123';
  const tail = (phones[1] ?? '+12065550188').slice(-7);
  const last4 = (phones[2] ?? '+13125550142').slice(-4);
  const conversationSearches = [
    'tomatoes',
    'Pacific Northwest',
    'powdery mildew',
    'blueberr',
    'neem oil',
    'frost',
    'Alaska',
    'tomatoes aphids',
    'xyzzy',
    '503555',
    full,
  ];
  const searchEstimates = new Map<string, number>();
  for (const term of conversationSearches) {
    const search = searchSql(term);
    const plan = await client.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(
      `EXPLAIN (FORMAT JSON) ${search.matches(null)}`,
      search.values,
    );
    searchEstimates.set(term, plan.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
  }
  const deepUserRows = new Map<string, { key: string | null; id: string }>();
  for (const [sort, order] of sortOrders()) {
    const definition = USER_SORTS[sort];
    const dir = order === 'asc' ? 'ASC' : 'DESC';
    const keyed = `FROM users u WHERE NOT u.is_test_user AND ${definition.sql} IS NOT NULL`;
    const row = (
      await client.query<{ key: string | null; id: string }>(
        `SELECT ${keyTextSql(definition)} AS key, u.id ${keyed}
          ORDER BY ${definition.sql} ${dir}, u.id ${dir}
         OFFSET (SELECT (count(*) * 0.6)::bigint ${keyed}) LIMIT 1`,
      )
    ).rows[0];
    if (row === undefined) throw new Error(`no users to sample for ${sort}`);
    deepUserRows.set(`${sort} ${order}`, row);
  }
  return {
    deepUserRows,
    userIds,
    heavyUserIds,
    conversationIds,
    // Full numbers (the Messages page links to /users?search={phone}), area-code prefixes, the
    // last 4 digits shown on the Messages page, a middle run, and digits nobody has.
    userSearches: [full, '+1503', tail, last4, '503555', '+1212', '99999999', full.slice(0, 8)],
    conversationSearches,
    searchEstimates,
  };
};

// ---------------------------------------------------------------------------------------------

const table = (results: ScenarioResult[]): string => {
  const header = [
    'endpoint',
    'n',
    'HTTP p50',
    'HTTP p95',
    'SQL p50',
    'SQL p95',
    'ratio p50',
    'ratio p95',
    'SQL prepared p50',
    'ratio (prepared)',
    'naive SQL',
    'targets',
  ];
  const rows = results.map((r) => [
    r.name,
    String(r.requests),
    `${r.http.p50.toFixed(1)} ms`,
    `${r.http.p95.toFixed(1)} ms`,
    `${r.sql.p50.toFixed(1)} ms`,
    `${r.sql.p95.toFixed(1)} ms`,
    r.ratioP50.toFixed(2),
    r.ratioP95.toFixed(2),
    r.sqlPrepared === undefined ? '' : `${r.sqlPrepared.p50.toFixed(1)} ms`,
    r.ratioPreparedP50 === undefined ? '' : r.ratioPreparedP50.toFixed(2),
    r.naiveSqlMs === undefined ? '' : `${r.naiveSqlMs.toFixed(0)} ms`,
    r.meetsTargets ? 'met' : 'MISSED',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
};

/** The seeded database (seeded first when missing, of another size or --reseed), migrated. */
async function prepareDatabase(
  options: Options,
  adminUrl: string,
): Promise<{ state: SeedState; databaseUrl: string }> {
  const size = sizeFor(options.scale);

  let state: SeedState | null = options.reseed ? null : await readSeedState(adminUrl, options.database);
  const sameSize = (a: SeedSize, b: SeedSize): boolean =>
    a.users === b.users && a.conversations === b.conversations && a.messages === b.messages;
  if (state && !sameSize(state.size, size)) {
    log(`${options.database} holds another size (${JSON.stringify(state.size)}): seeding again`);
    state = null;
  }
  if (state === null) {
    log(
      `seeding ${options.database}: ${size.users} users, ${size.conversations} conversations, ${size.messages} messages`,
    );
    state = await seed({ adminUrl, database: options.database, size, log });
  } else {
    log(`reusing ${options.database} seeded ${state.seededAt.toISOString()} (${JSON.stringify(state.size)})`);
    const ageDays = (Date.now() - state.seededAt.getTime()) / DAY;
    if (ageDays > 1)
      log(
        `note: seeded ${ageDays.toFixed(1)} days ago, so "today" and "last 24 h" hold less data; --reseed refreshes`,
      );
  }
  const databaseUrl = urlOf(adminUrl, options.database);
  // The schema may have gained migrations since the seed (they run on top of the data); as after
  // the seed, statistics and the visibility map are then brought up to date, as autovacuum would.
  const applied = await runMigrations(databaseUrl);
  if (applied.length > 0) {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      for (const table of ['users', 'conversations', 'messages']) {
        const started = performance.now();
        await client.query(`VACUUM (ANALYZE) ${table}`);
        log(
          `migrated (${applied.join(', ')}): VACUUM (ANALYZE) ${table} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
        );
      }
    } finally {
      await client.end();
    }
  }
  return { state, databaseUrl };
}

/** Removes the session and counters a run left in Redis under its own prefix. */
async function removeRunKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** The fixed cost of any admin request (routing, session check in Redis, no database), for context. */
async function measureFloors(
  worker: LoadWorker,
  options: Options,
): Promise<{ floor: ReturnType<typeof summarize>; probe: ReturnType<typeof summarize> }> {
  const floorJobs = Array.from({ length: options.requests }, () => ({ url: api.auth.status.path }));
  await worker.run('http', options.concurrency, floorJobs.slice(0, 40));
  const floor = summarize((await worker.run('http', options.concurrency, floorJobs)).latencies);
  log(
    `floor (GET ${api.auth.status.path}, no database): p50 ${round(floor.p50)} ms p95 ${round(floor.p95)} ms`,
  );
  const probeJobs = Array.from({ length: options.requests }, () => ({ url: '/health/live' }));
  const probe = summarize((await worker.run('http', options.concurrency, probeJobs)).latencies);
  log(`no session (GET /health/live): p50 ${round(probe.p50)} ms p95 ${round(probe.p95)} ms`);
  return { floor, probe };
}

export const main = async (argv: string[]): Promise<void> => {
  const options = parseOptions(argv);
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const { state, databaseUrl } = await prepareDatabase(options, adminUrl);
  if (options.seedOnly) return;

  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const gateway = await startApiGateway({ databaseUrl, redisUrl, bullmqPrefix: prefix });
  const naiveClient = new Client({ connectionString: databaseUrl, application_name: 'sprout-bench-naive' });
  let worker: LoadWorker | undefined;
  try {
    const { baseUrl, cookie } = gateway;
    log(`api-gateway on ${baseUrl}, signed in`);

    await naiveClient.connect();
    const samples = await sampleParameters(naiveClient);
    worker = new LoadWorker({ baseUrl, cookie, databaseUrl, concurrency: options.concurrency });

    const { floor, probe } = await measureFloors(worker, options);

    const loadBefore = os.loadavg()[0] ?? 0;
    const results: ScenarioResult[] = [];
    const only = options.only;
    for (const scenario of scenarios(samples).filter((s) => only === undefined || s.name.includes(only))) {
      const result = await measure(worker, scenario, options, naiveClient);
      log(
        `${result.name}: HTTP p50 ${result.http.p50} ms p95 ${result.http.p95} ms; SQL p50 ${result.sql.p50} ms ` +
          `p95 ${result.sql.p95} ms; ratio ${result.ratioP50}${result.firstError ? `; error: ${result.firstError}` : ''}`,
      );
      results.push(result);
    }

    const pgVersion = (await naiveClient.query<{ v: string }>('SHOW server_version')).rows[0]?.v ?? '';
    const report = {
      generatedAt: new Date().toISOString(),
      database: options.database,
      seededAt: state.seededAt.toISOString(),
      size: state.size,
      concurrency: options.concurrency,
      targets: { p95Ms: P95_TARGET_MS, ratioP50: RATIO_TARGET },
      floor: { route: 'GET /api/admin/auth-status', p50: round(floor.p50), p95: round(floor.p95) },
      noSession: { route: 'GET /health/live', p50: round(probe.p50), p95: round(probe.p95) },
      machine: {
        cpus: os.cpus().length,
        node: process.version,
        postgres: pgVersion,
        // Other work on the machine shares its cores: the 1-minute load average before and after.
        loadAverage: { before: round(loadBefore, 1), after: round(os.loadavg()[0] ?? 0, 1) },
      },
      results,
    };
    const out = path.join(ROOT, 'bench-results', only === undefined ? 'admin.json' : 'admin-partial.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(
      `\n${table(results)}\n\n${options.concurrency} concurrent clients over loopback; SQL = the same answer's ` +
        `hand-written statement through pg at the same concurrency, planned on every call; ratio = HTTP / SQL; ` +
        `SQL prepared = the same statement prepared, where the gateway prepares it; naive SQL = a plain ` +
        `count/sort without rollups or bounds (one client, median of 3).\nFloor: an authenticated request ` +
        `that reads no data (GET /api/admin/auth-status) takes p50 ${round(floor.p50)} ms, p95 ${round(floor.p95)} ms ` +
        `at the same concurrency (GET /health/live, no session check: p50 ${round(probe.p50)} ms, p95 ` +
        `${round(probe.p95)} ms).\nMachine: ${os.cpus().length} cores, 1-minute load average ${round(loadBefore, 1)} ` +
        `before and ${round(os.loadavg()[0] ?? 0, 1)} after (other work shares the cores).\nWritten ${path.relative(ROOT, out)}\n`,
    );
    if (results.some((r) => !r.meetsTargets)) process.exitCode = 1;
  } finally {
    await worker?.close();
    await naiveClient.end().catch(() => undefined);
    await gateway.close();
    await removeRunKeys(redisUrl, prefix);
  }
};
