import { BadRequestException } from '@nestjs/common';
import type { UserSortKey, UserSortOrder } from '@sprout/contracts';

// The orders of the admin Users table, on the server over all users, and the keyset
// cursor that continues one. Each key is written exactly as in migration 1796200000000, whose
// (is_test_user, key, id) index serves it: an expression index serves only the same expression.

type KeyType = 'text' | 'int' | 'numeric' | 'boolean' | 'timestamptz';

export interface UserSortDefinition {
  /** The sort key over users `u`. */
  sql: string;
  type: KeyType;
  /** Users without a value (no region, never wrote) come last in either direction. */
  nullable: boolean;
}

const REGION_KEY = `lower(coalesce(CASE WHEN jsonb_typeof(u.profile -> 'region') = 'string'
  AND btrim(u.profile ->> 'region', E' \\t\\r\\n') <> '' THEN u.profile ->> 'region' END, u.region))`;
/** Engagement: Low (under 5 messages), Medium (5 to 19), High (20 or more). */
const ENGAGEMENT_KEY = `(CASE WHEN u.total_messages >= 20 THEN 2 WHEN u.total_messages >= 5 THEN 1 ELSE 0 END)`;
/** Sentiment, in this order: negative, frustrated, neutral, positive; any other label (or none) is neutral. */
const SENTIMENT_KEY = `(CASE lower(btrim(u.average_sentiment)) WHEN 'negative' THEN 0 WHEN 'frustrated' THEN 1
  WHEN 'positive' THEN 3 ELSE 2 END)`;

export const USER_SORTS: Readonly<Record<UserSortKey, UserSortDefinition>> = {
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
};

/** The key as exact text for the cursor (timestamps to the microsecond, in UTC). */
export const keyTextSql = (sort: UserSortDefinition): string =>
  sort.type === 'timestamptz'
    ? `to_char(${sort.sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    : `(${sort.sql})::text`;

const KEY_TEXT: Record<KeyType, (text: string) => boolean> = {
  text: (text) => text.length <= 200,
  int: (text) => /^-?\d{1,10}$/.test(text),
  numeric: (text) => /^-?\d{1,20}(\.\d{1,6})?$/.test(text),
  boolean: (text) => text === 'true' || text === 'false',
  timestamptz: (text) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(text) && !Number.isNaN(Date.parse(text)),
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where a page starts: after the last row of the page before (its key, null past the keyed rows, and id). */
export interface UserCursor {
  sort: UserSortKey;
  order: UserSortOrder;
  key: string | null;
  id: string;
}

export const encodeUserCursor = (cursor: UserCursor): string =>
  Buffer.from(JSON.stringify([cursor.sort, cursor.order, cursor.key, cursor.id])).toString('base64url');

export const CURSOR_INVALID = 'cursor: is not a cursor of this list';
export const CURSOR_OTHER_ORDER = 'cursor: belongs to another sort or order; start again without it';

/** The cursor of a request, checked against its sort and order: a 400 with a message when it is not one. */
export const decodeUserCursor = (text: string, sort: UserSortKey, order: UserSortOrder): UserCursor => {
  let value: unknown;
  try {
    value = /^[A-Za-z0-9_-]+$/.test(text)
      ? JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
      : null;
  } catch {
    value = null;
  }
  if (!Array.isArray(value) || value.length !== 4) throw new BadRequestException(CURSOR_INVALID);
  const [cursorSort, cursorOrder, key, id] = value as unknown[];
  if (
    typeof cursorSort !== 'string' ||
    !(cursorSort in USER_SORTS) ||
    (cursorOrder !== 'asc' && cursorOrder !== 'desc')
  )
    throw new BadRequestException(CURSOR_INVALID);
  if (cursorSort !== sort || cursorOrder !== order) throw new BadRequestException(CURSOR_OTHER_ORDER);
  const definition = USER_SORTS[sort];
  const keyOk =
    key === null ? definition.nullable : typeof key === 'string' && KEY_TEXT[definition.type](key);
  if (!keyOk || typeof id !== 'string' || !UUID.test(id)) throw new BadRequestException(CURSOR_INVALID);
  return { sort, order, key: key as string | null, id };
};
