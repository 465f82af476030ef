import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Admin Users list: users by most recent message in the list's exact order, with the
 * phone number included, so the list's walk, and a broad phone search's walk (e.g. "+15035" while
 * the number is being typed), read only the index: the phone filter runs on index entries and
 * the heap is read for the page's rows alone.
 */
export class AdminUserRecencyIndex1795500000000 implements MigrationInterface {
  name = 'AdminUserRecencyIndex1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "idx_users_is_test_user_recent" ON "users" ("is_test_user", "last_message_at" DESC, "id") INCLUDE ("phone_number")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_users_is_test_user_recent"`);
  }
}
