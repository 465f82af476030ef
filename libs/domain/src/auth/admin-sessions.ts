import { type Db, managerOf } from '../db';

// Admin sessions are stored by the SHA-256 of their id (token_hash), never the id.

export interface NewAdminSession {
  tokenHash: string;
  adminUserId: string;
  createdAt: Date;
  idleExpiresAt: Date;
  expiresAt: Date;
}

export interface AdminSessionRow {
  admin_user_id: string;
  username: string;
  last_seen_at: Date;
  idle_expires_at: Date;
  expires_at: Date;
}

export async function insertAdminSession(db: Db, session: NewAdminSession): Promise<void> {
  await managerOf(db).query(
    `INSERT INTO "admin_sessions" ("token_hash", "admin_user_id", "created_at", "last_seen_at", "idle_expires_at", "expires_at")
       VALUES ($1, $2, $3, $3, $4, $5)`,
    [session.tokenHash, session.adminUserId, session.createdAt, session.idleExpiresAt, session.expiresAt],
  );
}

/** Deletes every session whose idle or absolute timeout has passed at `now`. */
export async function deleteExpiredAdminSessions(db: Db, now: Date): Promise<void> {
  await managerOf(db).query(
    `DELETE FROM "admin_sessions" WHERE "idle_expires_at" <= $1 OR "expires_at" <= $1`,
    [now],
  );
}

/** The session of that token hash with its admin's username, or undefined. */
export async function adminSessionByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<AdminSessionRow | undefined> {
  const rows = await managerOf(db).query<AdminSessionRow[]>(
    `SELECT s."admin_user_id", u."username", s."last_seen_at", s."idle_expires_at", s."expires_at"
         FROM "admin_sessions" s JOIN "admin_users" u ON u."id" = s."admin_user_id"
        WHERE s."token_hash" = $1`,
    [tokenHash],
  );
  return rows[0];
}

export async function deleteAdminSession(db: Db, tokenHash: string): Promise<void> {
  await managerOf(db).query(`DELETE FROM "admin_sessions" WHERE "token_hash" = $1`, [tokenHash]);
}

/**
 * Marks the session seen at `seenAt` and moves its idle timeout to `idleExpiresAt`, never past its
 * absolute timeout; a session deleted in between stays deleted.
 */
export async function extendAdminSession(
  db: Db,
  tokenHash: string,
  seenAt: Date,
  idleExpiresAt: Date,
): Promise<void> {
  await managerOf(db).query(
    `UPDATE "admin_sessions" SET "last_seen_at" = $2, "idle_expires_at" = LEAST($3::timestamptz, "expires_at")
          WHERE "token_hash" = $1`,
    [tokenHash, seenAt, idleExpiresAt],
  );
}
