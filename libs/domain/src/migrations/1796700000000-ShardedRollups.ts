import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Counter rows per metric (and hour): concurrent writers land on different rows. */
const SHARDS = 32;

/**
 * The admin rollups without a single hot row. Every message, user and conversation
 * insert used to add 1 to the same `rollup_totals` row and the same current-hour `rollup_hourly`
 * row at commit, so concurrent writers queued on those row locks. Now the counts live in
 * `rollup_total_shards` and `rollup_hourly_shards`, one row per (metric, test flag[, hour], shard),
 * the shard being the writing connection's backend pid modulo 32: one connection always adds to
 * its own row, so two transactions wait on each other only when their pids collide. The names the
 * readers use, `rollup_totals` and `rollup_hourly`, are views summing the shards, with the same
 * columns and types as the tables they replace; a reader's filters on metric, test flag and hour
 * reach the shard tables' primary keys through the view's GROUP BY. `rollup_rebuild()` writes
 * shard 0 (and so folds the shards back into one row).
 */
export class ShardedRollups1796700000000 implements MigrationInterface {
  name = 'ShardedRollups1796700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "rollup_totals" RENAME TO "rollup_total_shards"`,
      `ALTER TABLE "rollup_total_shards" ADD COLUMN "shard" smallint NOT NULL DEFAULT 0`,
      `ALTER TABLE "rollup_total_shards" DROP CONSTRAINT "pk_rollup_totals"`,
      `ALTER TABLE "rollup_total_shards"
         ADD CONSTRAINT "pk_rollup_total_shards" PRIMARY KEY ("metric", "is_test_user", "shard")`,
      `ALTER TABLE "rollup_hourly" RENAME TO "rollup_hourly_shards"`,
      `ALTER TABLE "rollup_hourly_shards" ADD COLUMN "shard" smallint NOT NULL DEFAULT 0`,
      `ALTER TABLE "rollup_hourly_shards" DROP CONSTRAINT "pk_rollup_hourly"`,
      `ALTER TABLE "rollup_hourly_shards"
         ADD CONSTRAINT "pk_rollup_hourly_shards" PRIMARY KEY ("metric", "is_test_user", "hour", "shard")`,
      `CREATE VIEW "rollup_totals" AS
         SELECT metric, is_test_user, sum(count)::bigint AS count
           FROM rollup_total_shards GROUP BY metric, is_test_user`,
      `CREATE VIEW "rollup_hourly" AS
         SELECT metric, is_test_user, hour, sum(count)::bigint AS count
           FROM rollup_hourly_shards GROUP BY metric, is_test_user, hour`,

      `CREATE OR REPLACE FUNCTION rollup_add(p_metric varchar, p_is_test_user boolean, p_at timestamptz, p_delta bigint)
        RETURNS void LANGUAGE plpgsql AS $$
        DECLARE
          v_shard smallint := pg_backend_pid() % ${SHARDS};
        BEGIN
          INSERT INTO rollup_total_shards AS t (metric, is_test_user, shard, count)
            VALUES (p_metric, p_is_test_user, v_shard, p_delta)
            ON CONFLICT (metric, is_test_user, shard) DO UPDATE SET count = t.count + EXCLUDED.count;
          IF p_at IS NOT NULL THEN
            INSERT INTO rollup_hourly_shards AS h (metric, is_test_user, hour, shard, count)
              VALUES (p_metric, p_is_test_user, date_trunc('hour', p_at, 'UTC'), v_shard, p_delta)
              ON CONFLICT (metric, is_test_user, hour, shard) DO UPDATE SET count = h.count + EXCLUDED.count;
          END IF;
        END
        $$`,

      `CREATE OR REPLACE FUNCTION rollup_forget() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          DELETE FROM rollup_total_shards WHERE metric = ANY (TG_ARGV);
          DELETE FROM rollup_hourly_shards WHERE metric = ANY (TG_ARGV);
          RETURN NULL;
        END
        $$`,

      `CREATE OR REPLACE FUNCTION rollup_rebuild() RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
          LOCK TABLE messages, users, conversations IN SHARE MODE;
          DELETE FROM rollup_total_shards;
          DELETE FROM rollup_hourly_shards;
          INSERT INTO rollup_hourly_shards (metric, is_test_user, hour, count)
            SELECT rollup_message_metric(direction, kind), is_test_user, date_trunc('hour', created_at, 'UTC'), count(*)
            FROM messages GROUP BY 1, 2, 3;
          INSERT INTO rollup_hourly_shards (metric, is_test_user, hour, count)
            SELECT 'users', is_test_user, date_trunc('hour', created_at, 'UTC'), count(*)
            FROM users GROUP BY 1, 2, 3;
          INSERT INTO rollup_total_shards (metric, is_test_user, count)
            SELECT metric, is_test_user, sum(count) FROM rollup_hourly_shards GROUP BY 1, 2;
          INSERT INTO rollup_total_shards (metric, is_test_user, count)
            SELECT 'messages_failed', is_test_user, count(*) FROM messages
            WHERE status IN ('failed', 'undelivered') GROUP BY 1, 2;
          INSERT INTO rollup_total_shards (metric, is_test_user, count)
            SELECT 'conversations', is_test_user, count(*) FROM conversations GROUP BY 1, 2;
        END
        $$`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `DROP VIEW "rollup_hourly"`,
      `DROP VIEW "rollup_totals"`,
      // Fold the shards into one row each before the shard column goes.
      `CREATE TABLE "rollup_totals" (
        "metric" varchar NOT NULL,
        "is_test_user" boolean NOT NULL,
        "count" bigint NOT NULL DEFAULT 0,
        CONSTRAINT "pk_rollup_totals" PRIMARY KEY ("metric", "is_test_user")
      )`,
      `CREATE TABLE "rollup_hourly" (
        "metric" varchar NOT NULL,
        "is_test_user" boolean NOT NULL,
        "hour" timestamptz NOT NULL,
        "count" bigint NOT NULL DEFAULT 0,
        CONSTRAINT "pk_rollup_hourly" PRIMARY KEY ("metric", "is_test_user", "hour")
      )`,
      `INSERT INTO "rollup_totals" (metric, is_test_user, count)
         SELECT metric, is_test_user, sum(count) FROM rollup_total_shards GROUP BY 1, 2`,
      `INSERT INTO "rollup_hourly" (metric, is_test_user, hour, count)
         SELECT metric, is_test_user, hour, sum(count) FROM rollup_hourly_shards GROUP BY 1, 2, 3`,
      `DROP TABLE "rollup_hourly_shards"`,
      `DROP TABLE "rollup_total_shards"`,
      `CREATE OR REPLACE FUNCTION rollup_add(p_metric varchar, p_is_test_user boolean, p_at timestamptz, p_delta bigint)
        RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO rollup_totals AS t (metric, is_test_user, count)
            VALUES (p_metric, p_is_test_user, p_delta)
            ON CONFLICT (metric, is_test_user) DO UPDATE SET count = t.count + EXCLUDED.count;
          IF p_at IS NOT NULL THEN
            INSERT INTO rollup_hourly AS h (metric, is_test_user, hour, count)
              VALUES (p_metric, p_is_test_user, date_trunc('hour', p_at, 'UTC'), p_delta)
              ON CONFLICT (metric, is_test_user, hour) DO UPDATE SET count = h.count + EXCLUDED.count;
          END IF;
        END
        $$`,
      `CREATE OR REPLACE FUNCTION rollup_forget() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          DELETE FROM rollup_totals WHERE metric = ANY (TG_ARGV);
          DELETE FROM rollup_hourly WHERE metric = ANY (TG_ARGV);
          RETURN NULL;
        END
        $$`,
      `CREATE OR REPLACE FUNCTION rollup_rebuild() RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
          LOCK TABLE messages, users, conversations IN SHARE MODE;
          DELETE FROM rollup_totals;
          DELETE FROM rollup_hourly;
          INSERT INTO rollup_hourly (metric, is_test_user, hour, count)
            SELECT rollup_message_metric(direction, kind), is_test_user, date_trunc('hour', created_at, 'UTC'), count(*)
            FROM messages GROUP BY 1, 2, 3;
          INSERT INTO rollup_hourly (metric, is_test_user, hour, count)
            SELECT 'users', is_test_user, date_trunc('hour', created_at, 'UTC'), count(*)
            FROM users GROUP BY 1, 2, 3;
          INSERT INTO rollup_totals (metric, is_test_user, count)
            SELECT metric, is_test_user, sum(count) FROM rollup_hourly GROUP BY 1, 2;
          INSERT INTO rollup_totals (metric, is_test_user, count)
            SELECT 'messages_failed', is_test_user, count(*) FROM messages
            WHERE status IN ('failed', 'undelivered') GROUP BY 1, 2;
          INSERT INTO rollup_totals (metric, is_test_user, count)
            SELECT 'conversations', is_test_user, count(*) FROM conversations GROUP BY 1, 2;
        END
        $$`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
