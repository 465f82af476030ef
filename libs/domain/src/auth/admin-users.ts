import { type Db, managerOf } from '../db';
import { AdminUser } from '../entities/admin-user.entity';

/** The admin of that username, or null. */
export async function adminUserByUsername(db: Db, username: string): Promise<AdminUser | null> {
  return managerOf(db).findOneBy(AdminUser, { username });
}

/** Inserts unless another instance got there first; true when this call created the row. */
export async function insertAdminUserIfAbsent(
  db: Db,
  username: string,
  passwordHash: string,
): Promise<boolean> {
  const rows: unknown[] = await managerOf(db).query(
    'INSERT INTO admin_users (username, password_hash) VALUES ($1, $2) ON CONFLICT (username) DO NOTHING RETURNING id',
    [username, passwordHash],
  );
  return rows.length > 0;
}

export async function setAdminPasswordHash(db: Db, id: string, passwordHash: string): Promise<void> {
  await managerOf(db).update(AdminUser, { id }, { passwordHash });
}

export async function recordAdminLogin(db: Db, id: string, at: Date): Promise<void> {
  await managerOf(db).update(AdminUser, { id }, { lastLoginAt: at });
}
