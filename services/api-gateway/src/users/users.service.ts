import { Injectable } from '@nestjs/common';
import {
  type AdminUserListItem,
  SENDER_LIMITS_MAX_ROWS,
  type SenderLimitsResponse,
  type UserDetail,
  type UserOverviewStats,
  type UserSortKey,
  type UserSortOrder,
} from '@sprout/contracts';
import { senderLimitsEndingAfter } from '@sprout/domain';
import { DataSource } from 'typeorm';
import { queryPrepared } from '@sprout/platform';
import { type JsonText, isoJson } from '@sprout/platform';
import { phonePattern } from './search';
import { DAY_MS, percent, rollingWindow, startOfUtcDay } from './time-windows';
import {
  type UserCursor,
  type UserSortDefinition,
  USER_SORTS,
  decodeUserCursor,
  encodeUserCursor,
  keyTextSql,
} from './user-sorts';

/** A search counts its matches up to this many; up to this many, its page is sorted from them in memory. */
const USER_SEARCH_COUNT_CAP = 1000;
/** Recent Activity covers this many UTC days, today included. */
const RECENT_ACTIVITY_DAYS = 30;

const MESSAGE_METRICS = `('messages_inbound', 'messages_reply', 'messages_proactive')`;

/** A profile field that is a string with something in it, else NULL. */
export const profileText = (key: string): string =>
  `CASE WHEN jsonb_typeof(u.profile -> '${key}') = 'string' AND btrim(u.profile ->> '${key}', E' \\t\\r\\n') <> ''
        THEN u.profile ->> '${key}' END`;

/**
 * The fields of AdminUserListItem (contracts) as json_build_object arguments, for users `u`.
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

/** Where the rows of a page come from: all users of the kind, a search's few matches, or its many. */
type PageSource = 'browse' | 'few' | 'many';

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
const pageStatement = (
  sort: UserSortDefinition,
  order: UserSortOrder,
  cursor: UserCursor | null,
  source: PageSource,
  values: { testUsers: boolean; limit: number; matchIds?: string[]; pattern?: string },
): { text: string; values: unknown[] } => {
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

const USERS_TOTAL = `SELECT coalesce(sum(count), 0) AS n FROM rollup_totals WHERE metric = 'users' AND is_test_user = $1`;

export interface UserListOptions {
  testUsers: boolean;
  search: string;
  sort: UserSortKey;
  order: UserSortOrder;
  /** The previous page's X-Next-Cursor, or '' for the first page. */
  cursor: string;
  limit: number;
}

export interface UserList {
  /** The page, in the chosen order. */
  json: JsonText<AdminUserListItem[]>;
  /** All users of the chosen kind, or (with a search) the matches counted up to the cap. */
  total: number;
  totalIsCapped: boolean;
  /** The next page's cursor; null when this page is the last. */
  nextCursor: string | null;
}

/**
 * The admin Users screen's reads. Every statement is one round trip and bounded: counts come from
 * the rollups (rollup_totals, rollup_hourly), index-only ranges or capped counts; lists from
 * index order with a LIMIT; per-user figures from the users row's counters and the user's own
 * index ranges.
 */
@Injectable()
export class UsersQueryService {
  constructor(private readonly dataSource: DataSource) {}

  async overview(testUsers: boolean, now: Date = new Date()): Promise<UserOverviewStats> {
    const week = rollingWindow(now, 7 * DAY_MS);
    const rows = await queryPrepared<
      Record<'total_users' | 'active_users' | 'new_users' | 'total_messages', string>
    >(
      this.dataSource,
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
      [testUsers, new Date(now.getTime() - DAY_MS), week.from, week.wholeHoursFrom],
    );
    const row = rows[0];
    if (row === undefined) throw new Error('User overview query returned no row');
    const totalUsers = Number(row.total_users);
    const activeUsers = Number(row.active_users);
    return {
      totalUsers,
      activeUsers,
      newUsers: Number(row.new_users),
      totalMessages: Number(row.total_messages),
      engagementRate: percent(activeUsers, totalUsers),
    };
  }

  /**
   * A page of the users of the chosen kind in the chosen order, optionally those whose phone
   * number matches the search (see phonePattern); a search that cannot be a phone number matches
   * nobody. A bad cursor, or one of another sort or order, is a 400.
   */
  async list(options: UserListOptions): Promise<UserList> {
    const { testUsers, search, sort, order, limit } = options;
    const cursor = options.cursor === '' ? null : decodeUserCursor(options.cursor, sort, order);
    const definition = USER_SORTS[sort];
    if (search === '') {
      const statement = pageStatement(definition, order, cursor, 'browse', { testUsers, limit });
      const [page, totals] = await Promise.all([
        this.page(statement, sort, order, limit),
        queryPrepared<{ n: string }>(this.dataSource, USERS_TOTAL, [testUsers]),
      ]);
      return { ...page, total: Number(totals[0]?.n ?? 0), totalIsCapped: false };
    }
    const phone = phonePattern(search);
    if (phone === null) return { json: '[]', total: 0, totalIsCapped: false, nextCursor: null };
    // Matches first, up to the cap + 1, by the phone indexes: their number is the count. At most
    // the cap: the page is sorted from them. More: the search is broad, and the sort's index walk
    // meets the page's matches quickly.
    const found: Array<{ id: string }> = await this.dataSource.query(
      `SELECT u.id FROM users u WHERE u.is_test_user = $1 AND u.phone_number LIKE $2 LIMIT $3::int + 1`,
      [testUsers, phone.pattern, USER_SEARCH_COUNT_CAP],
    );
    const totalIsCapped = found.length > USER_SEARCH_COUNT_CAP;
    const statement = totalIsCapped
      ? pageStatement(definition, order, cursor, 'many', { testUsers, limit, pattern: phone.pattern })
      : pageStatement(definition, order, cursor, 'few', {
          testUsers,
          limit,
          matchIds: found.map((r) => r.id),
        });
    const page = await this.page(statement, sort, order, limit);
    return { ...page, total: totalIsCapped ? USER_SEARCH_COUNT_CAP : found.length, totalIsCapped };
  }

  /** Runs a page statement (prepared: one fixed text per sort, order, cursor kind and source). */
  private async page(
    statement: { text: string; values: unknown[] },
    sort: UserSortKey,
    order: UserSortOrder,
    limit: number,
  ): Promise<Pick<UserList, 'json' | 'nextCursor'>> {
    const rows = await queryPrepared<{
      n: string;
      users: JsonText<AdminUserListItem[]>;
      last: [string | null, string] | null;
    }>(this.dataSource, statement.text, statement.values);
    const row = rows[0];
    if (row === undefined) throw new Error('User page query returned no row');
    const nextCursor =
      Number(row.n) >= limit && row.last !== null
        ? encodeUserCursor({ sort, order, key: row.last[0], id: row.last[1] })
        : null;
    return { json: row.users, nextCursor };
  }

  /** The user with profile and analytics, or null when there is no such user. */
  async detail(id: string, now: Date = new Date()): Promise<JsonText<UserDetail> | null> {
    const since = new Date(startOfUtcDay(now).getTime() - (RECENT_ACTIVITY_DAYS - 1) * DAY_MS);
    const rows = await queryPrepared<{ detail: JsonText<UserDetail> }>(
      this.dataSource,
      `SELECT json_build_object(${USER_FIELDS},
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
      [id, since, now],
    );
    return rows[0]?.detail ?? null;
  }

  /** Senders over a reply limit now, then those whose stretch ended in the last 24 hours. */
  async senderLimits(now: Date = new Date()): Promise<SenderLimitsResponse> {
    const rows = await senderLimitsEndingAfter(
      this.dataSource,
      now,
      new Date(now.getTime() - DAY_MS),
      SENDER_LIMITS_MAX_ROWS,
    );
    return {
      senders: rows.map((row) => ({
        userId: row.userId,
        phoneNumber: row.phoneNumber,
        window: row.window,
        limit: row.limit,
        limitedAt: row.limitedAt.toISOString(),
        limitedUntil: row.limitedUntil.toISOString(),
        active: row.limitedUntil.getTime() > now.getTime(),
        refusedTexts: row.refused,
      })),
    };
  }
}
