import type { DataSource, EntityManager } from 'typeorm';
import { User } from '../entities/user.entity';
import { entityColumns, entityPrepared, queryPrepared, statementText } from '../prepared-query';

const E164 = /^\+[1-9]\d{6,14}$/;

/** True for an E.164 number such as +15035550123. */
export function isE164(phone: string): boolean {
  return E164.test(phone);
}

export interface FindOrCreateUserOptions {
  /** Only applied when the row is created; an existing user keeps its flag. */
  isTestUser?: boolean;
}

/**
 * The user with this phone number, created on first contact. Race-free: concurrent callers
 * all get the same row (INSERT ... ON CONFLICT DO NOTHING, then SELECT).
 */
export async function findOrCreateUserByPhone(
  manager: EntityManager,
  phoneNumber: string,
  options: FindOrCreateUserOptions = {},
): Promise<User> {
  if (!isE164(phoneNumber)) {
    throw new RangeError(`Phone number must be E.164 (e.g. +15035550123)`);
  }
  await manager
    .createQueryBuilder()
    .insert()
    .into(User)
    .values({ phoneNumber, isTestUser: options.isTestUser ?? false })
    .orIgnore()
    .execute();
  return manager.findOneByOrFail(User, { phoneNumber });
}

/** A user by id, or null. */
export async function userById(db: DataSource | EntityManager, userId: string): Promise<User | null> {
  return db.getRepository(User).findOneBy({ id: userId });
}

const LOCK_ID = `SELECT u.id FROM users u WHERE u.id = $1 FOR UPDATE`;
const LOCK_ROW = statementText(
  (dataSource) =>
    `SELECT ${entityColumns(dataSource, User, 'u').sql} FROM users u WHERE u.id = $1 FOR UPDATE`,
);

/**
 * The user's row, locked until the caller's transaction ends (`db` a transaction's manager): whole,
 * or only its id with `idOnly` (a lock that reads nothing). Null when there is no such user.
 */
export async function lockUser(db: EntityManager, userId: string, idOnly = false): Promise<User | null> {
  if (!idOnly) return entityPrepared(db, User, 'u', LOCK_ROW(db), [userId]);
  const [row] = await queryPrepared<{ id: string }>(db, LOCK_ID, [userId]);
  return row === undefined ? null : (row as User);
}
