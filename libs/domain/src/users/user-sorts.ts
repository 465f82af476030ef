// The orders of the admin Users table, over all users. Each key is written exactly as in
// migration 1796200000000, whose (is_test_user, key, id) index serves it: an expression index
// serves only the same expression.

export type UserSortKeyType = 'text' | 'int' | 'numeric' | 'boolean' | 'timestamptz';

export interface UserSortDefinition {
  /** The sort key over users `u`. */
  sql: string;
  type: UserSortKeyType;
  /** Users without a value (no region, never wrote) come last in either direction. */
  nullable: boolean;
}

const REGION_KEY = `lower(coalesce(CASE WHEN jsonb_typeof(u.profile -> 'region') = 'string'
  AND btrim(u.profile ->> 'region', E' \\t\\r\\n') <> '' THEN u.profile ->> 'region' END, u.region))`;
/** Low (under 5 messages), Medium (5 to 19), High (20 or more). */
const ENGAGEMENT_KEY = `(CASE WHEN u.total_messages >= 20 THEN 2 WHEN u.total_messages >= 5 THEN 1 ELSE 0 END)`;
/** negative, frustrated, neutral, positive; any other label (or none) is neutral. */
const SENTIMENT_KEY = `(CASE lower(btrim(u.average_sentiment)) WHEN 'negative' THEN 0 WHEN 'frustrated' THEN 1
  WHEN 'positive' THEN 3 ELSE 2 END)`;

export const USER_SORTS = {
  phoneNumber: { sql: 'u.phone_number', type: 'text', nullable: false },
  region: { sql: REGION_KEY, type: 'text', nullable: true },
  isActive: { sql: 'u.is_active', type: 'boolean', nullable: false },
  totalMessages: { sql: 'u.total_messages', type: 'int', nullable: false },
  engagement: { sql: ENGAGEMENT_KEY, type: 'int', nullable: false },
  sentiment: { sql: SENTIMENT_KEY, type: 'int', nullable: false },
  totalCost: { sql: 'u.total_cost', type: 'numeric', nullable: false },
  profileCompletionScore: { sql: 'u.profile_completion_score', type: 'int', nullable: false },
  createdAt: { sql: 'u.created_at', type: 'timestamptz', nullable: false },
  lastMessageAt: { sql: 'u.last_message_at', type: 'timestamptz', nullable: true },
} as const satisfies Readonly<Record<string, UserSortDefinition>>;

export type UserSortName = keyof typeof USER_SORTS;
export type SortOrder = 'asc' | 'desc';

/**
 * Where a page of the Users table starts: after the last row of the page before (its key, null past
 * the keyed rows, and id).
 */
export interface UserCursor {
  sort: UserSortName;
  order: SortOrder;
  key: string | null;
  id: string;
}

/** The list's cursor (X-Next-Cursor): [sort, order, key, id] as base64url JSON. */
export const encodeUserCursor = (cursor: UserCursor): string =>
  Buffer.from(JSON.stringify([cursor.sort, cursor.order, cursor.key, cursor.id])).toString('base64url');

/** The key as exact text for the cursor (timestamps to the microsecond, in UTC). */
export const keyTextSql = (sort: UserSortDefinition): string =>
  sort.type === 'timestamptz'
    ? `to_char(${sort.sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    : `(${sort.sql})::text`;

/** A profile field that is a string with something in it, else NULL (users `u`). */
export const profileText = (key: string): string =>
  `CASE WHEN jsonb_typeof(u.profile -> '${key}') = 'string' AND btrim(u.profile ->> '${key}', E' \\t\\r\\n') <> ''
        THEN u.profile ->> '${key}' END`;
