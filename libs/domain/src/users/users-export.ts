import type { Statement } from '../cursor';
import { type SortOrder, USER_SORTS, type UserSortName, profileText } from './user-sorts';

// The labels the table shows, from the sort keys that order them (0 first).
const ENGAGEMENT_LABELS = `(ARRAY['Low', 'Medium', 'High'])[${USER_SORTS.engagement.sql} + 1]`;
const SENTIMENT_LABELS = `(ARRAY['negative', 'frustrated', 'neutral', 'positive'])[${USER_SORTS.sentiment.sql} + 1]`;

export interface UsersExportScope {
  testUsers: boolean;
  /** The search's phone LIKE pattern; null: a search that matches nobody; undefined: no search. */
  phonePattern?: string | null;
  sort: UserSortName;
  order: SortOrder;
}

/** Every user the Users table lists (same kind, search and order), for the CSV export. */
export const usersExportStatement = ({
  testUsers,
  phonePattern,
  sort,
  order,
}: UsersExportScope): Statement => {
  const values: unknown[] = [testUsers];
  let match = '';
  if (phonePattern !== undefined)
    match = phonePattern === null ? 'AND false' : `AND u.phone_number LIKE $${values.push(phonePattern)}`;
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  const text = `SELECT u.id AS user_id, u.phone_number, u.test_user_name,
        coalesce(${profileText('region')}, u.region) AS region, u.zip_code,
        CASE WHEN u.is_active THEN 'Active' ELSE 'Inactive' END AS status,
        u.total_messages, ${ENGAGEMENT_LABELS} AS engagement, ${SENTIMENT_LABELS} AS sentiment,
        u.total_cost, u.profile_completion_score AS profile_completion,
        u.created_at AS joined_at, u.last_message_at
      FROM users u
     WHERE u.is_test_user = $1 ${match}
     ORDER BY ${USER_SORTS[sort].sql} ${dir} NULLS LAST, u.id ${dir}`;
  return { text, values };
};
