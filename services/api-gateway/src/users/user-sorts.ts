import { BadRequestException } from '@nestjs/common';
import type { UserSortKey, UserSortOrder } from '@sprout/contracts';
import { USER_SORTS, type UserCursor, type UserSortKeyType } from '@sprout/domain';

// Reading the keyset cursor that continues an order of the admin Users table (the orders, USER_SORTS,
// and the cursor's encoding live in libs/domain).

const KEY_TEXT: Record<UserSortKeyType, (text: string) => boolean> = {
  text: (text) => text.length <= 200,
  int: (text) => /^-?\d{1,10}$/.test(text),
  numeric: (text) => /^-?\d{1,20}(\.\d{1,6})?$/.test(text),
  boolean: (text) => text === 'true' || text === 'false',
  timestamptz: (text) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(text) && !Number.isNaN(Date.parse(text)),
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
