import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard's figures for today and the last 24 hours (indexes or rollups, never a
 * scan per poll) read their index ranges alone: messages by (is_test_user, created_at) carry the
 * user, direction and response time (active users, messages today, average response time), and
 * model calls by (is_test_user, created_at) carry their cost (today's cost).
 */
export class DashboardCoveringIndexes1795800000000 implements MigrationInterface {
  name = 'DashboardCoveringIndexes1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `DROP INDEX "idx_messages_is_test_user_created_at"`,
      `CREATE INDEX "idx_messages_is_test_user_created_at" ON "messages" ("is_test_user", "created_at")
        INCLUDE ("user_id", "direction", "response_time_ms")`,
      `CREATE INDEX "idx_llm_calls_is_test_user_created_at" ON "llm_calls" ("is_test_user", "created_at") INCLUDE ("cost")`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `DROP INDEX "idx_llm_calls_is_test_user_created_at"`,
      `DROP INDEX "idx_messages_is_test_user_created_at"`,
      `CREATE INDEX "idx_messages_is_test_user_created_at" ON "messages" ("is_test_user", "created_at")`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
