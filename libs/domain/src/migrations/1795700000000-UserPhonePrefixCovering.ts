import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Admin Users phone search: the E.164 prefix index carries what the search reads of each
 * match (kind, recency, id), so counting a broad prefix's matches ("+1503": 5% of users) reads the
 * index alone instead of scanning the table.
 */
export class UserPhonePrefixCovering1795700000000 implements MigrationInterface {
  name = 'UserPhonePrefixCovering1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_users_phone_number_pattern"`);
    await queryRunner.query(
      `CREATE INDEX "idx_users_phone_number_pattern" ON "users" ("phone_number" text_pattern_ops)
        INCLUDE ("is_test_user", "last_message_at", "created_at", "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_users_phone_number_pattern"`);
    await queryRunner.query(
      `CREATE INDEX "idx_users_phone_number_pattern" ON "users" ("phone_number" text_pattern_ops)`,
    );
  }
}
