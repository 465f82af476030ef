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
import {
  type JsonText,
  type Statement,
  USER_SORTS,
  encodeUserCursor,
  phonePattern,
  senderLimitsEndingAfter,
  userDetailJson,
  userIdsMatchingPhone,
  userOverview,
  userPage,
  userPageStatement,
  usersTotal,
} from '@sprout/domain';
import { DataSource } from 'typeorm';
import { DAY_MS, percent, rollingWindow, startOfUtcDay } from './time-windows';
import { decodeUserCursor } from './user-sorts';

/** A search counts its matches up to this many; up to this many, its page is sorted from them in memory. */
const USER_SEARCH_COUNT_CAP = 1000;
/** Recent Activity covers this many UTC days, today included. */
const RECENT_ACTIVITY_DAYS = 30;

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
    const row = await userOverview(
      this.dataSource,
      testUsers,
      new Date(now.getTime() - DAY_MS),
      week.from,
      week.wholeHoursFrom,
    );
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
      const statement = userPageStatement(definition, order, cursor, 'browse', { testUsers, limit });
      const [page, total] = await Promise.all([
        this.page(statement, sort, order, limit),
        usersTotal(this.dataSource, testUsers),
      ]);
      return { ...page, total, totalIsCapped: false };
    }
    const phone = phonePattern(search);
    if (phone === null) return { json: '[]', total: 0, totalIsCapped: false, nextCursor: null };
    // Matches first, up to the cap + 1, by the phone indexes: their number is the count. At most
    // the cap: the page is sorted from them. More: the search is broad, and the sort's index walk
    // meets the page's matches quickly.
    const found = await userIdsMatchingPhone(
      this.dataSource,
      testUsers,
      phone.pattern,
      USER_SEARCH_COUNT_CAP,
    );
    const totalIsCapped = found.length > USER_SEARCH_COUNT_CAP;
    const statement = totalIsCapped
      ? userPageStatement(definition, order, cursor, 'many', { testUsers, limit, pattern: phone.pattern })
      : userPageStatement(definition, order, cursor, 'few', { testUsers, limit, matchIds: found });
    const page = await this.page(statement, sort, order, limit);
    return { ...page, total: totalIsCapped ? USER_SEARCH_COUNT_CAP : found.length, totalIsCapped };
  }

  /** Runs a page statement (prepared: one fixed text per sort, order, cursor kind and source). */
  private async page(
    statement: Statement,
    sort: UserSortKey,
    order: UserSortOrder,
    limit: number,
  ): Promise<Pick<UserList, 'json' | 'nextCursor'>> {
    const row = await userPage<AdminUserListItem[]>(this.dataSource, statement);
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
    return userDetailJson<UserDetail>(this.dataSource, id, since, now);
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
