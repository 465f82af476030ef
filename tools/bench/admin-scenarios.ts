// What the admin benchmark measures: every endpoint of the Users and Messages screens (and the
// dashboard's cards), each with the request the console makes and the same answer's hand-written SQL,
// the baseline the HTTP latency is compared with; and the parameters sampled from the seeded data.
import { Client } from 'pg';
import { USER_SORT_KEYS, api, endpointUrl, type UserSortKey, type UserSortOrder } from '@sprout/contracts';
import { USER_SORTS, encodeUserCursor, keyTextSql, userDetailStatement } from '@sprout/domain';
import { UNASSIGNED_AREA_CODES, unassignedPhoneAt } from '../seed/phones';
import { routeOf } from './harness';

// Two area codes of the bulk seed, each a twentieth of its users (the seed's first and seventh).
const AREA = UNASSIGNED_AREA_CODES[0] ?? '';
const OTHER_AREA = UNASSIGNED_AREA_CODES[6] ?? '';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export interface Statement {
  /** Set: run as a named prepared statement, as the gateway runs the same answer's statement. */
  name?: string;
  text: string;
  values: unknown[];
}

export interface Job {
  url: string;
  /** One statement, or several run in turn on one connection. */
  sql: Statement | Statement[];
}

export interface Scenario {
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

export interface Samples {
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

export const sortOrders = (): Array<[UserSortKey, UserSortOrder]> =>
  USER_SORT_KEYS.flatMap((sort) =>
    (['asc', 'desc'] as const).map((order): [UserSortKey, UserSortOrder] => [sort, order]),
  );

/** A page of the Users table as the console asks for it (real users, no search). */
const usersPage = (sort: UserSortKey, order: UserSortOrder, cursor?: string): string =>
  endpointUrl(api.users.list, {
    query: {
      search: '',
      showTestUsers: false,
      sort,
      order,
      limit: USER_PAGE,
      ...(cursor === undefined ? {} : { cursor }),
    },
  });

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
        route: routeOf(api.users.list, `sort=${sort}&order={asc,desc}&limit=${USER_PAGE}`),
        prepared: true,
        jobs: (i) => ({
          url: usersPage(sort, orderOf(i)),
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
        route: routeOf(api.users.list, `sort=${sort}&order={asc,desc}&limit=${USER_PAGE}&cursor={60% down}`),
        prepared: true,
        jobs: (i) => {
          const order = orderOf(i);
          const row = samples.deepUserRows.get(`${sort} ${order}`);
          if (row === undefined) throw new Error(`no deep row for ${sort} ${order}`);
          const cursor = encodeUserCursor({ sort, order, key: row.key, id: row.id });
          return {
            url: usersPage(sort, order, cursor),
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
export const searchSql = (
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

/** The windows the cards count over, as the gateway computes them at the time of the run. */
interface Windows {
  dayAgo: Date;
  weekAgo: Date;
  /** The first whole hour after weekAgo: rollup_hourly from there, the part hour before it from users. */
  weekHead: Date;
  today: Date;
  yesterday: Date;
  /** The hour holding dayAgo, read from messages (rollup_hourly covers the rest). */
  dayHead: Date;
  dayHeadEnd: Date;
  activitySince: Date;
}

const windows = (now = new Date()): Windows => {
  const dayAgo = new Date(now.getTime() - DAY);
  const weekAgo = new Date(now.getTime() - 7 * DAY);
  const today = utcDay(now);
  const dayHead = floorHour(dayAgo);
  return {
    dayAgo,
    weekAgo,
    weekHead: new Date(floorHour(weekAgo).getTime() + HOUR),
    today,
    yesterday: new Date(today.getTime() - DAY),
    dayHead,
    dayHeadEnd: new Date(dayHead.getTime() + HOUR),
    activitySince: new Date(today.getTime() - 29 * DAY),
  };
};

// A page: ids from a walk in list order (index-only on the covering index when browsing), rows
// read in full only for the page, with the user and the latest message.
const conversationPage = (ids: string, total: string, ctes = ''): string => `
  WITH ${ctes} page AS (SELECT ${CONV_COLS} FROM (${ids}) p JOIN conversations c ON c.id = p.id)
  SELECT (${total}) AS total,
         (SELECT json_agg(${CONVERSATION_JSON} ORDER BY c.last_message_at DESC, c.id DESC)::text
            FROM page c JOIN users u ON u.id = c.user_id) AS conversations`;
const CONVERSATIONS_TOTAL = `SELECT sum(count) FROM rollup_totals WHERE metric = 'conversations' AND is_test_user = false`;

/** The hand-written SQL baselines: as few statements as the answer needs, as an expert would write them. */
export const scenarios = (samples: Samples): Scenario[] => {
  const w = windows();
  return [
    ...userScenarios(samples, w),
    ...browseScenarios(),
    conversationSearch(samples),
    ...oneConversationScenarios(samples),
    ...cardScenarios(w),
  ];
};

/**
 * A request that is the same every time (the cards, a fixed page), whose statement the gateway
 * prepares: its route is its URL.
 */
const fixed = (name: string, url: string, sql: Statement, naive?: Statement): Scenario => ({
  name,
  route: `GET ${url}`,
  prepared: true,
  jobs: () => ({ url, sql }),
  ...(naive === undefined ? {} : { naive }),
});

/** The Users screen's cards. */
const userCards = (w: Windows): Scenario =>
  fixed(
    'users: stat cards',
    endpointUrl(api.users.stats, { query: { showTestUsers: false } }),
    {
      text: `SELECT
        (SELECT sum(count) FROM rollup_totals WHERE metric = 'users' AND is_test_user = false) AS total_users,
        (SELECT count(*) FROM users WHERE is_test_user = false AND last_message_at >= $1) AS active_users,
        (SELECT coalesce(sum(count), 0) FROM rollup_hourly WHERE metric = 'users' AND is_test_user = false AND hour >= $3)
          + (SELECT count(*) FROM users WHERE created_at >= $2 AND created_at < $3 AND is_test_user = false) AS new_users,
        (SELECT sum(count) FROM rollup_totals WHERE metric IN ${MESSAGE_METRICS} AND is_test_user = false) AS messages`,
      values: [w.dayAgo, w.weekAgo, w.weekHead],
    },
    {
      text: `SELECT (SELECT count(*) FROM users WHERE NOT is_test_user),
                    (SELECT count(DISTINCT user_id) FROM messages WHERE NOT is_test_user AND created_at >= $1),
                    (SELECT count(*) FROM users WHERE NOT is_test_user AND created_at >= $2),
                    (SELECT count(*) FROM messages WHERE NOT is_test_user)`,
      values: [w.dayAgo, w.weekAgo],
    },
  );

/** The Users screen: its cards, its table in every order, the phone search, one user. */
const userScenarios = (samples: Samples, w: Windows): Scenario[] => [
  userCards(w),
  ...userSortScenarios(samples),
  {
    name: 'users: phone search',
    route: routeOf(api.users.list, 'search={digits}&showTestUsers=false'),
    jobs: (i) => {
      const term = pick(samples.userSearches, i);
      return {
        url: endpointUrl(api.users.list, { query: { search: term, showTestUsers: false } }),
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
    route: routeOf(api.users.detail),
    prepared: true,
    jobs: (i) => {
      const id = i % 5 === 0 ? pick(samples.heavyUserIds, i) : pick(samples.userIds, i);
      return {
        url: endpointUrl(api.users.detail, { params: { id } }),
        sql: userDetailStatement(id, w.activitySince, new Date()),
      };
    },
  },
];

/** The Messages screen's list browsed: the first pages, a deep one. */
const browseScenarios = (): Scenario[] => [
  {
    name: 'conversations: page 1-5',
    route: routeOf(api.messages.list, 'page={1-5}&limit=20&search=&showTestData=false'),
    prepared: true,
    jobs: (i) => {
      const page = 1 + (i % 5);
      return {
        url: endpointUrl(api.messages.list, { query: { page, limit: 20, search: '', showTestData: false } }),
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
  fixed(
    'conversations: deep page (500)',
    endpointUrl(api.messages.list, { query: { page: 500, limit: 20, search: '', showTestData: false } }),
    {
      text: conversationPage(
        `SELECT id FROM conversations WHERE is_test_user = false
          ORDER BY last_message_at DESC, id DESC LIMIT 20 OFFSET 9980`,
        CONVERSATIONS_TOTAL,
      ),
      values: [],
    },
  ),
];

/** The Messages screen's search. */
const conversationSearch = (samples: Samples): Scenario => ({
  name: 'conversations: search',
  route: routeOf(api.messages.list, 'page=1&limit=20&search={text}&showTestData=false'),
  jobs: (i) => {
    const term = pick(samples.conversationSearches, i);
    const estimate = samples.searchEstimates.get(term) ?? 0;
    const search = searchSql(term);
    const found = estimate < 3000 ? searchSql(term, true) : search;
    // Few matches (by the planner's estimate): all of them, up to 1001, for an exact count;
    // many: the page and one more, the estimate standing for the total.
    const walk = estimate < 2000 ? 1001 : 21;
    return {
      url: endpointUrl(api.messages.list, {
        query: { page: 1, limit: 20, search: term, showTestData: false },
      }),
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
});

/** One user's conversations (the panel of the Users screen) and one conversation's messages. */
const oneConversationScenarios = (samples: Samples): Scenario[] => [
  {
    name: "conversations: one user's (panel)",
    route: routeOf(api.messages.list, 'userId={id}&showTestData=false'),
    prepared: true,
    jobs: (i) => {
      const id = i % 5 === 0 ? pick(samples.heavyUserIds, i) : pick(samples.userIds, i);
      return {
        url: endpointUrl(api.messages.list, { query: { userId: id, showTestData: false } }),
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
    route: routeOf(api.messages.messages, 'showTestData=false'),
    prepared: true,
    jobs: (i) => {
      const id = pick(samples.conversationIds, i);
      return {
        url: endpointUrl(api.messages.messages, { params: { id }, query: { showTestData: false } }),
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
];

/** The Messages screen's cards and the dashboard's. */
const cardScenarios = (w: Windows): Scenario[] => [
  fixed(
    'messages: stat cards',
    endpointUrl(api.messages.messageStats, { query: { showTestData: false } }),
    {
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
      values: [w.yesterday, w.today, w.dayHead, w.dayHeadEnd, w.dayAgo],
    },
    {
      text: `SELECT (SELECT count(*) FROM messages WHERE NOT is_test_user),
                    (SELECT count(*) FROM messages WHERE NOT is_test_user AND created_at >= $1),
                    (SELECT count(*) FROM messages WHERE NOT is_test_user AND created_at >= $2 AND created_at < $3),
                    (SELECT count(*) FILTER (WHERE direction = 'outbound') FROM messages WHERE NOT is_test_user AND created_at >= $3),
                    (SELECT count(*) FROM messages WHERE NOT is_test_user AND status IN ('failed', 'undelivered'))`,
      values: [w.today, w.yesterday, w.dayAgo],
    },
  ),
  // The dashboard's cards read the same tables (indexes or rollups for it too, never a scan).
  fixed('dashboard: metrics', endpointUrl(api.dashboard.metrics, { query: { showTestData: false } }), {
    text: `SELECT
      (SELECT count(*) FROM users WHERE is_test_user = false AND last_message_at >= $1) AS active_users,
      t.messages_today, t.avg_response_ms,
      (SELECT coalesce(sum(cost), 0) FROM llm_calls WHERE is_test_user = false AND created_at >= $2) AS todays_cost,
      (SELECT count(*) FROM beta_signups) AS signups_total,
      (SELECT count(*) FROM beta_signups WHERE status = 'pending') AS signups_pending
      FROM (SELECT count(*) AS messages_today,
                   avg(response_time_ms) FILTER (WHERE direction = 'outbound') AS avg_response_ms
              FROM messages WHERE is_test_user = false AND created_at >= $2) t`,
    values: [w.dayAgo, w.today],
  }),
];

export const sampleParameters = async (client: Client): Promise<Samples> => {
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
  const full = phones[0] ?? unassignedPhoneAt(123);
  const tail = (phones[1] ?? unassignedPhoneAt(188)).slice(-7);
  const last4 = (phones[2] ?? unassignedPhoneAt(142)).slice(-4);
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
    `${AREA}555`,
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
    userSearches: [
      full,
      `+1${AREA}`,
      tail,
      last4,
      `${AREA}555`,
      `+1${OTHER_AREA}`,
      '99999999',
      full.slice(0, 8),
    ],
    conversationSearches,
    searchEstimates,
  };
};
