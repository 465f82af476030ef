import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import type { UserSortKey, UserSortOrder } from '@sprout/contracts';
import { USER_EXPORT_COLUMNS } from '@sprout/contracts';
import { phonePattern, usersExportStatement } from '@sprout/domain';
import { type CsvColumn, CsvExporter } from '../common/csv-export';
import { maskSearch } from './search';

/** Free text a user or the pipeline wrote: guarded against spreadsheet formulas. */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(['test_user_name', 'region', 'zip_code']);

const COLUMNS: CsvColumn[] = USER_EXPORT_COLUMNS.map((header) => ({
  header,
  field: header,
  text: TEXT_COLUMNS.has(header),
}));

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
    // The list's rule: phone digits, and a search that cannot be a phone number matches nobody.
    const statement = usersExportStatement({
      testUsers,
      phonePattern: search === '' ? undefined : (phonePattern(search)?.pattern ?? null),
      sort,
      order,
    });
    return this.csv.stream(COLUMNS, statement, {
      admin,
      export: 'users',
      showTestUsers: testUsers,
      search: maskSearch(search),
      sort,
      order,
    });
  }
}
