import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every text updates its user's `last_message_at`, which no update can do in place while an index
 * covers the column, so each index on it is rewritten per text. `(is_test_user, last_message_at)`
 * is a prefix of the Users sort index `(is_test_user, last_message_at, id)`, which serves every
 * query it served: one index fewer to rewrite on the webhook's path.
 */
export class DropRedundantUserIndex1797600000000 implements MigrationInterface {
  name = 'DropRedundantUserIndex1797600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "idx_users_is_test_user_last_message_at"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "idx_users_is_test_user_last_message_at" ON "users" ("is_test_user", "last_message_at")`,
    );
  }
}
