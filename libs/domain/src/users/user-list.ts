import type { DataSource } from 'typeorm';
import type { Statement } from '../cursor';
import { queryPrepared } from '../prepared-query';
import { type JsonText, isoJson } from '../sql';
import { type SortOrder, type UserSortDefinition, keyTextSql, profileText } from './user-sorts';

// The admin Users screen's reads. Every statement is one round trip and bounded: counts come from
// the rollups (rollup_totals, rollup_hourly), index-only ranges or capped counts; lists from
// index order with a LIMIT; per-user figures from the users row's counters and the user's own
// index ranges.

const MESSAGE_METRICS = `('messages_inbound', 'messages_reply', 'messages_proactive')`;

/**
 * The fields of the admin list's user item as json_build_object arguments, for users `u`.
 * Postgres writes the JSON: a 200-user list then costs the gateway one string, not 200 parsed
 * rows re-serialised (the list is polled every 10 s).
 */
const USER_FIELDS = `
  'id', u.id,
  'phoneNumber', u.phone_number,
  'createdAt', ${isoJson('u.created_at')},
  'isActive', u.is_active,
  'lastMessageAt', ${isoJson('u.last_message_at')},
  'profileCompletionScore', u.profile_completion_score,
  'zipCode', u.zip_code,
  'isTestUser', u.is_test_user,
  'profile', json_build_object(
    'region', coalesce(${profileText('region')}, u.region),
    'growingContext', ${profileText('growingContext')},
    'preferences', CASE jsonb_typeof(u.profile -> 'preferences')
      WHEN 'array' THEN coalesce((SELECT jsonb_agg(p) FROM jsonb_array_elements(u.profile -> 'preferences') p
                                   WHERE jsonb_typeof(p) = 'string'), '[]'::jsonb)
      WHEN 'string' THEN CASE WHEN ${profileText('preferences')} IS NULL THEN '[]'::jsonb
                              ELSE jsonb_build_array(u.profile -> 'preferences') END
      ELSE '[]'::jsonb END,
    'conversationStyle', ${profileText('conversationStyle')})`;

const LIST_ANALYTICS = `json_build_object(
  'totalMessages', u.total_messages,
  'totalCost', u.total_cost::float8,
  'averageSentiment', u.average_sentiment)`;

export type UserOverviewRow = Record<'total_users' | 'active_users' | 'new_users' | 'total_messages', string>;

/**
 * Users of the kind (rollup), active since `activeSince`, new since `newSince` (the rollup's
 * whole hours from `wholeHoursFrom`, the head hour counted on users), and their messages (rollup).
 */
export async function userOverview(
  dataSource: DataSource,
  testUsers: boolean,
  activeSince: Date,
  newSince: Date,
  wholeHoursFrom: Date,
): Promise<UserOverviewRow | undefined> {
  const rows = await queryPrepared<UserOverviewRow>(
    dataSource,
    `SELECT
           (SELECT coalesce(sum(count), 0) FROM rollup_totals
             WHERE metric = 'users' AND is_test_user = $1) AS total_users,
           (SELECT count(*) FROM users
             WHERE is_test_user = $1 AND last_message_at >= $2) AS active_users,
           (SELECT coalesce(sum(count), 0) FROM rollup_hourly
             WHERE metric = 'users' AND is_test_user = $1 AND hour >= $4)
           + (SELECT count(*) FROM users
               WHERE created_at >= $3 AND created_at < $4 AND is_test_user = $1) AS new_users,
           (SELECT coalesce(sum(count), 0) FROM rollup_totals
             WHERE metric IN ${MESSAGE_METRICS} AND is_test_user = $1) AS total_messages`,
    [testUsers, activeSince, newSince, wholeHoursFrom],
  );
  return rows[0];
}

const USERS_TOTAL = `SELECT coalesce(sum(count), 0) AS n FROM rollup_totals WHERE metric = 'users' AND is_test_user = $1`;

/** Every user of the kind (the rollup). */
export async function usersTotal(dataSource: DataSource, testUsers: boolean): Promise<number> {
  const totals = await queryPrepared<{ n: string }>(dataSource, USERS_TOTAL, [testUsers]);
  return Number(totals[0]?.n ?? 0);
}

/** Ids of the users of the kind whose number matches the LIKE pattern, at most `cap` + 1 of them. */
export async function userIdsMatchingPhone(
  dataSource: DataSource,
  testUsers: boolean,
  pattern: string,
  cap: number,
): Promise<string[]> {
  const found: Array<{ id: string }> = await dataSource.query(
    `SELECT u.id FROM users u WHERE u.is_test_user = $1 AND u.phone_number LIKE $2 LIMIT $3::int + 1`,
    [testUsers, pattern, cap],
  );
  return found.map((r) => r.id);
}

/** Where the rows of a page come from: all users of the kind, a search's few matches, or its many. */
export type UserPageSource = 'browse' | 'few' | 'many';

/** Where a page starts: after the row of this key (null past the keyed rows) and id. */
export interface UserPageAfter {
  key: string | null;
  id: string;
}

/** Positional parameters, numbered as they are added. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

/**
 * One page of users in the chosen order, with the page's JSON, its row count and the last row's
 * key and id (the next cursor). Rows with a key come first, in (key, id) order from the cursor on,
 * then (nullable keys) the rows without one, in id order in the same direction: each part is one
 * walk of the sort's (is_test_user, key, id) index, forwards or backwards, stopped at the limit.
 * `few`: the search's matches (at most the count cap) are read by id and sorted in memory.
 */
export const userPageStatement = (
  sort: UserSortDefinition,
  order: SortOrder,
  cursor: UserPageAfter | null,
  source: UserPageSource,
  values: { testUsers: boolean; limit: number; matchIds?: string[]; pattern?: string },
): Statement => {
  const params = new Params();
  const test = params.add(values.testUsers);
  const limit = params.add(values.limit, '::int');
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  const reverse = order === 'asc' ? 'DESC' : 'ASC';
  const after = order === 'asc' ? '>' : '<';
  const from = source === 'few' ? 'matches u' : 'users u';
  const match = source === 'many' ? `AND u.phone_number LIKE ${params.add(values.pattern)}` : '';
  const ctes: string[] = [];
  if (source === 'few')
    ctes.push(
      `matches AS MATERIALIZED (SELECT * FROM users u WHERE u.id = ANY(${params.add(values.matchIds)}::uuid[]))`,
    );

  const parts: string[] = [];
  if (cursor === null || cursor.key !== null) {
    const from_cursor =
      cursor === null
        ? ''
        : `AND (${sort.sql}, u.id) ${after} (${params.add(cursor.key)}::${sort.type}, ${params.add(cursor.id)}::uuid)`;
    parts.push(`(SELECT 0 AS part, ${sort.sql} AS k, ${keyTextSql(sort)} AS key_text, u.id FROM ${from}
       WHERE u.is_test_user = ${test} ${sort.nullable ? `AND ${sort.sql} IS NOT NULL` : ''} ${from_cursor} ${match}
       ORDER BY ${sort.sql} ${dir}, u.id ${dir} LIMIT ${limit})`);
  }
  if (sort.nullable) {
    const from_cursor = cursor?.key === null ? `AND u.id ${after} ${params.add(cursor.id)}::uuid` : '';
    // Ordered by the (null) key too, so the walk is the index's own order.
    parts.push(`(SELECT 1 AS part, NULL::${sort.type} AS k, NULL AS key_text, u.id FROM ${from}
       WHERE u.is_test_user = ${test} AND ${sort.sql} IS NULL ${from_cursor} ${match}
       ORDER BY ${sort.sql} ${dir}, u.id ${dir} LIMIT ${limit})`);
  }
  ctes.push(`page AS MATERIALIZED (SELECT * FROM (${parts.join(' UNION ALL ')}) parts LIMIT ${limit})`);
  return {
    text: `WITH ${ctes.join(',\n')}
      SELECT (SELECT count(*) FROM page) AS n,
             (SELECT coalesce(json_agg(json_build_object(${USER_FIELDS}, 'analytics', ${LIST_ANALYTICS})
                       ORDER BY p.part, p.k ${dir}, p.id ${dir}), '[]')::text
                FROM page p JOIN users u ON u.id = p.id) AS users,
             (SELECT json_build_array(p.key_text, p.id) FROM page p
               ORDER BY p.part DESC, p.k ${reverse}, p.id ${reverse} LIMIT 1) AS last`,
    values: params.values,
  };
};

export interface UserPageRow<T> {
  n: string;
  users: JsonText<T>;
  last: [string | null, string] | null;
}

/** Runs a page statement (prepared: one fixed text per sort, order, cursor kind and source). */
export async function userPage<T>(
  dataSource: DataSource,
  statement: Statement,
): Promise<UserPageRow<T> | undefined> {
  const rows = await queryPrepared<UserPageRow<T>>(dataSource, statement.text, statement.values);
  return rows[0];
}

/**
 * The user with profile, analytics (messages per UTC day since `since`) and the reply limit they
 * are over at `now`, as JSON; null when there is no such user.
 */
export async function userDetailJson<T>(
  dataSource: DataSource,
  id: string,
  since: Date,
  now: Date,
): Promise<JsonText<T> | null> {
  const { text, values } = userDetailStatement(id, since, now);
  const rows = await queryPrepared<{ detail: JsonText<T> }>(dataSource, text, values);
  return rows[0]?.detail ?? null;
}

/** The statement userDetailJson runs (the admin bench times it too). */
export const userDetailStatement = (id: string, since: Date, now: Date): Statement => ({
  text: `SELECT json_build_object(${USER_FIELDS},
         'region', u.region,
         'hardinessZone', u.hardiness_zone,
         'analytics', json_build_object(
           'totalMessages', u.total_messages,
           'conversationSessions', (SELECT count(*) FROM conversations c WHERE c.user_id = u.id),
           'totalTokens', u.total_tokens,
           'avgTokensPerMessage', CASE WHEN u.total_messages > 0
             THEN round(u.total_tokens::numeric / u.total_messages, 1)::float8 ELSE 0 END,
           'totalCost', u.total_cost::float8,
           'totalSmsCost', u.total_sms_cost::float8,
           'averageSentiment', u.average_sentiment,
           'recentActivity', (
             SELECT coalesce(json_agg(json_build_object('date', d.day, 'messages', d.messages, 'cost', d.cost,
                                                        'smsCost', d.sms_cost)
                      ORDER BY d.day DESC), '[]')
               FROM (SELECT to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
                            count(*) AS messages, sum(m.cost)::float8 AS cost,
                            coalesce(sum(m.sms_cost), 0)::float8 AS sms_cost
                       FROM messages m
                      WHERE m.user_id = u.id AND m.created_at >= $2
                      GROUP BY 1) d)),
         -- Over a per-sender reply limit now (sender_limits, written by ai-responder).
         'rateLimit', (
           SELECT json_build_object(
                    'window', s.limit_window,
                    'limit', s.reply_limit,
                    'limitedAt', ${isoJson('s.limited_at')},
                    'limitedUntil', ${isoJson('s.limited_until')},
                    'active', true,
                    'refusedTexts', s.refused)
             FROM sender_limits s WHERE s.user_id = u.id AND s.limited_until > $3))::text AS detail
       FROM users u WHERE u.id = $1`,
  values: [id, since, now],
});

export async function userExists(dataSource: DataSource, id: string): Promise<boolean> {
  const found: unknown[] = await dataSource.query('SELECT 1 FROM users WHERE id = $1', [id]);
  return found.length > 0;
}
