import { Injectable } from '@nestjs/common';
import type { AdminUserListItem, UserDetail, UserOverviewStats } from '@sprout/contracts';
import { DataSource } from 'typeorm';
import { queryPrepared } from '@sprout/platform';
import { type JsonText, isoJson } from '@sprout/platform';
import { phonePattern } from './search';
import { DAY_MS, percent, rollingWindow, startOfUtcDay } from './time-windows';

/** A search counts its matches up to this many (the list shows at most 500 anyway). */
export const USER_SEARCH_COUNT_CAP = 1000;
/** Recent Activity covers this many UTC days, today included (spec: 30-day window). */
export const RECENT_ACTIVITY_DAYS = 30;

const MESSAGE_METRICS = `('messages_inbound', 'messages_reply', 'messages_proactive')`;

const USER_COLUMNS = `u.id, u.phone_number, u.created_at, u.is_active, u.last_message_at,
  u.profile_completion_score, u.zip_code, u.region, u.hardiness_zone, u.profile, u.is_test_user,
  u.total_messages, u.total_tokens, u.total_cost, u.average_sentiment`;

/** A profile field that is a string with something in it, else NULL. */
const profileText = (key: string): string =>
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

/** The list's order: most recent message first; users who never wrote last, newest first. */
const LIST_ORDER = `u.last_message_at DESC NULLS LAST,
  CASE WHEN u.last_message_at IS NULL THEN u.created_at END DESC NULLS LAST, u.id`;

/**
 * The ids of the $2 most recent users of kind $1 (matching `where`), in two index-ordered halves
 * (the index keeps NULL last_message_at apart; the second is read only when the first has fewer
 * rows). The first half reads idx_users_is_test_user_recent alone, phone filter included.
 */
const recentUserIds = (where: string): string => `
  (SELECT u.id FROM users u
    WHERE u.is_test_user = $1 AND u.last_message_at IS NOT NULL ${where}
    ORDER BY u.last_message_at DESC, u.id LIMIT $2)
  UNION ALL
  (SELECT u.id FROM users u
    WHERE u.is_test_user = $1 AND u.last_message_at IS NULL ${where}
    ORDER BY u.created_at DESC, u.id LIMIT $2)
  LIMIT $2`;

export interface UserList {
  /** Most recently active first. */
  json: JsonText<AdminUserListItem[]>;
  /** All users of the chosen kind, or (with a search) the matches counted up to the cap. */
  total: number;
  totalIsCapped: boolean;
}

/**
 * The admin Users screen's reads. Every statement is one round trip and bounded: counts come from
 * the rollups (rollup_totals, rollup_hourly), index-only ranges or capped counts; lists from
 * index order with a LIMIT; per-user figures from the users row's counters and the user's own
 * index ranges.
 */
@Injectable()
export class AdminUsersQueryService {
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
   * The `limit` most recently active users of the chosen kind (those who never wrote last,
   * newest first), optionally those whose phone number matches the search (see phonePattern);
   * a search that cannot be a phone number matches nobody.
   */
  async list(options: { testUsers: boolean; search: string; limit: number }): Promise<UserList> {
    const { testUsers, search, limit } = options;
    if (search !== '') return this.search(testUsers, search, limit);
    // Browsing is one fixed statement, prepared.
    const rows = await queryPrepared<{ total_count: string; users: JsonText<AdminUserListItem[]> }>(
      this.dataSource,
      `WITH page AS (SELECT ${USER_COLUMNS} FROM users u JOIN (${recentUserIds('')}) p ON p.id = u.id)
       SELECT (SELECT coalesce(sum(count), 0) FROM rollup_totals
                WHERE metric = 'users' AND is_test_user = $1) AS total_count,
              (SELECT coalesce(json_agg(json_build_object(${USER_FIELDS}, 'analytics', ${LIST_ANALYTICS})
                        ORDER BY ${LIST_ORDER}), '[]')::text FROM page u) AS users`,
      [testUsers, limit],
    );
    const row = rows[0];
    if (row === undefined) throw new Error('User list query returned no row');
    return { json: row.users, total: Number(row.total_count), totalIsCapped: false };
  }

  /**
   * Matches first, up to the cap + 1, in whatever order the planner finds cheapest (the phone
   * indexes): their number is the count. At most the cap: the page is their newest. More: the
   * search is broad, and the recency walk finds the page's matches quickly. (Ordering matches by
   * recency in one step lets the planner walk the whole recency index for a rare number it
   * misjudges as common.) This statement, planned for its pattern, finds ids only; the page's
   * JSON comes from a prepared one, so planning stays small.
   */
  private async search(testUsers: boolean, search: string, limit: number): Promise<UserList> {
    const phone = phonePattern(search);
    if (phone === null) return { json: '[]', total: 0, totalIsCapped: false };
    const found: Array<{ total_count: string; ids: string[] | null }> = await this.dataSource.query(
      `WITH matches AS MATERIALIZED (
         SELECT u.id, u.last_message_at, u.created_at FROM users u
          WHERE u.is_test_user = $1 AND u.phone_number LIKE $3 LIMIT $4::int + 1
       ), counted AS MATERIALIZED (SELECT count(*) AS n FROM matches),
       page AS (
         (SELECT u.id FROM matches u WHERE (SELECT n FROM counted) <= $4 ORDER BY ${LIST_ORDER} LIMIT $2)
         UNION ALL
         (SELECT w.id FROM (${recentUserIds('AND u.phone_number LIKE $3')}) w WHERE (SELECT n FROM counted) > $4)
       )
       SELECT (SELECT n FROM counted) AS total_count, (SELECT array_agg(id) FROM page) AS ids`,
      [testUsers, limit, phone.pattern, USER_SEARCH_COUNT_CAP],
    );
    const head = found[0];
    if (head === undefined) throw new Error('User search returned no row');
    const count = Number(head.total_count);
    const totalIsCapped = count > USER_SEARCH_COUNT_CAP;
    return {
      json: await this.usersJson(head.ids ?? []),
      total: totalIsCapped ? USER_SEARCH_COUNT_CAP : count,
      totalIsCapped,
    };
  }

  /** These users as the list's JSON, most recently active first (a prepared statement). */
  private async usersJson(ids: string[]): Promise<JsonText<AdminUserListItem[]>> {
    if (ids.length === 0) return '[]';
    const rows = await queryPrepared<{ users: JsonText<AdminUserListItem[]> }>(
      this.dataSource,
      `SELECT coalesce(json_agg(json_build_object(${USER_FIELDS}, 'analytics', ${LIST_ANALYTICS})
                ORDER BY ${LIST_ORDER}), '[]')::text AS users
         FROM users u WHERE u.id = ANY($1::uuid[])`,
      [ids],
    );
    return rows[0]?.users ?? '[]';
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
           'averageSentiment', u.average_sentiment,
           'recentActivity', (
             SELECT coalesce(json_agg(json_build_object('date', d.day, 'messages', d.messages, 'cost', d.cost)
                      ORDER BY d.day DESC), '[]')
               FROM (SELECT to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
                            count(*) AS messages, sum(m.cost)::float8 AS cost
                       FROM messages m
                      WHERE m.user_id = u.id AND m.created_at >= $2
                      GROUP BY 1) d)))::text AS detail
       FROM users u WHERE u.id = $1`,
      [id, since],
    );
    return rows[0]?.detail ?? null;
  }
}
