import type { MigrationInterface, QueryRunner } from 'typeorm';

// The sort keys of the admin Users table, written exactly as the Users list statements write
// them (libs/domain/src/users/user-sorts.ts): an expression index serves only the
// same expression.
const REGION_KEY = `lower(coalesce(CASE WHEN jsonb_typeof(profile -> 'region') = 'string'
  AND btrim(profile ->> 'region', E' \\t\\r\\n') <> '' THEN profile ->> 'region' END, region))`;
const ENGAGEMENT_KEY = `(CASE WHEN total_messages >= 20 THEN 2 WHEN total_messages >= 5 THEN 1 ELSE 0 END)`;
const SENTIMENT_KEY = `(CASE lower(btrim(average_sentiment)) WHEN 'negative' THEN 0 WHEN 'frustrated' THEN 1
  WHEN 'positive' THEN 3 ELSE 2 END)`;

const SORT_INDEXES: Array<[name: string, key: string]> = [
  ['idx_users_sort_phone', 'phone_number'],
  ['idx_users_sort_region', REGION_KEY],
  ['idx_users_sort_active', 'is_active'],
  ['idx_users_sort_messages', 'total_messages'],
  ['idx_users_sort_engagement', ENGAGEMENT_KEY],
  ['idx_users_sort_sentiment', SENTIMENT_KEY],
  ['idx_users_sort_cost', 'total_cost'],
  ['idx_users_sort_profile', 'profile_completion_score'],
  ['idx_users_sort_created', 'created_at'],
  ['idx_users_sort_last_message', 'last_message_at'],
];

/**
 * Admin Users table sorted on any column over all users: one (is_test_user, key, id)
 * b-tree per column, walked forwards or backwards from a keyset cursor (key, id), so every page
 * of every order reads only its own rows. The counters sorted on (messages, cost, sentiment) are
 * the users row's own, kept by the message writer.
 */
export class AdminUserSortIndexes1796200000000 implements MigrationInterface {
  name = 'AdminUserSortIndexes1796200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, key] of SORT_INDEXES)
      await queryRunner.query(`CREATE INDEX "${name}" ON "users" ("is_test_user", ${key}, "id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of SORT_INDEXES) await queryRunner.query(`DROP INDEX "${name}"`);
  }
}
