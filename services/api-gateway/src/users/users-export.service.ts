import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import type { UserSortKey, UserSortOrder } from '@sprout/contracts';
import { USER_EXPORT_COLUMNS } from '@sprout/contracts';
import { type CsvColumn, CsvExporter } from '../common/csv-export';
import { profileText } from './users.service';
import { maskSearch, phonePattern } from './search';
import { USER_SORTS } from './user-sorts';

/** Free text a user or the pipeline wrote: guarded against spreadsheet formulas. */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(['test_user_name', 'region', 'zip_code']);

const COLUMNS: CsvColumn[] = USER_EXPORT_COLUMNS.map((header) => ({
  header,
  field: header,
  text: TEXT_COLUMNS.has(header),
}));

// The labels the table shows, from the sort keys that order them (0 first).
const ENGAGEMENT_LABELS = `(ARRAY['Low', 'Medium', 'High'])[${USER_SORTS.engagement.sql} + 1]`;
const SENTIMENT_LABELS = `(ARRAY['negative', 'frustrated', 'neutral', 'positive'])[${USER_SORTS.sentiment.sql} + 1]`;

export interface UserExportScope {
  /** Who takes it, for the log. */
  admin: string;
  testUsers: boolean;
  search: string;
  sort: UserSortKey;
  order: UserSortOrder;
}

/** The Users screen's CSV: every user its table lists (same kind, search and order), not one page. */
@Injectable()
export class UsersExportService {
  constructor(private readonly csv: CsvExporter) {}

  users({ admin, testUsers, search, sort, order }: UserExportScope): Readable {
    const params: unknown[] = [testUsers];
    let match = '';
    if (search !== '') {
      // The list's rule: phone digits, and a search that cannot be a phone number matches nobody.
      const phone = phonePattern(search);
      match = phone === null ? 'AND false' : `AND u.phone_number LIKE $${params.push(phone.pattern)}`;
    }
    const dir = order === 'asc' ? 'ASC' : 'DESC';
    const sql = `SELECT u.id AS user_id, u.phone_number, u.test_user_name,
        coalesce(${profileText('region')}, u.region) AS region, u.zip_code,
        CASE WHEN u.is_active THEN 'Active' ELSE 'Inactive' END AS status,
        u.total_messages, ${ENGAGEMENT_LABELS} AS engagement, ${SENTIMENT_LABELS} AS sentiment,
        u.total_cost, u.profile_completion_score AS profile_completion,
        u.created_at AS joined_at, u.last_message_at
      FROM users u
     WHERE u.is_test_user = $1 ${match}
     ORDER BY ${USER_SORTS[sort].sql} ${dir} NULLS LAST, u.id ${dir}`;
    return this.csv.stream(COLUMNS, sql, params, {
      admin,
      export: 'users',
      showTestUsers: testUsers,
      search: maskSearch(search),
      sort,
      order,
    });
  }
}
