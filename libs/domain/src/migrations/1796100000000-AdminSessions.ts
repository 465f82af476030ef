import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Admin console sessions move from Redis to Postgres, so an admin stays signed in (and the System
 * Health page can say Redis is down) while Redis is unreachable. Sessions held in Redis before
 * this are not carried over: admins sign in once more.
 */
export class AdminSessions1796100000000 implements MigrationInterface {
  name = 'AdminSessions1796100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE "admin_sessions" (
        "token_hash" varchar NOT NULL,
        "admin_user_id" uuid NOT NULL,
        "created_at" timestamptz NOT NULL,
        "last_seen_at" timestamptz NOT NULL,
        "idle_expires_at" timestamptz NOT NULL,
        "expires_at" timestamptz NOT NULL,
        CONSTRAINT "pk_admin_sessions" PRIMARY KEY ("token_hash"),
        CONSTRAINT "fk_admin_sessions_admin_user_id" FOREIGN KEY ("admin_user_id") REFERENCES "admin_users" ("id") ON DELETE CASCADE
      )`,
      `CREATE INDEX "idx_admin_sessions_admin_user_id" ON "admin_sessions" ("admin_user_id")`,
      `CREATE INDEX "idx_admin_sessions_idle_expires_at" ON "admin_sessions" ("idle_expires_at")`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "admin_sessions"`);
  }
}
