import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The daily spending limit as a hard cap:
 * - `llm_spend_buckets`: model-call cost per 15 minutes, kept by statement triggers on llm_calls
 *   whoever writes the call (replies, summaries, images), so today's spend is a sum of at most
 *   96 x 8 rows in any time zone (offsets are whole quarter hours). Eight shards per bucket, chosen
 *   by backend, so concurrent writers never wait on one row; a statement adds one row per bucket
 *   it touches (a bulk seed costs little). Emptying llm_calls empties it. The triggers fire in
 *   replica mode too (ENABLE ALWAYS), like the other bookkeeping triggers, so seeds are counted.
 * - `spend_reservations`: the worst-case cost of model calls in flight. A reply reserves before
 *   calling a model (under an advisory lock, only while spent + reserved + its cost fits the
 *   limit) and settles afterwards, writing its llm_calls row and deleting its reservation in one
 *   transaction. A reservation whose process died expires.
 */
export class SpendLedger1795900000000 implements MigrationInterface {
  name = 'SpendLedger1795900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE "llm_spend_buckets" (
        "bucket" timestamptz NOT NULL,
        "shard" smallint NOT NULL,
        "cost" numeric(14,6) NOT NULL DEFAULT 0,
        CONSTRAINT "pk_llm_spend_buckets" PRIMARY KEY ("bucket", "shard")
      )`,
      // One statement's calls, summed per bucket into this backend's shard (a bulk insert is one upsert per bucket).
      `CREATE FUNCTION llm_calls_spend_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO "llm_spend_buckets" ("bucket", "shard", "cost")
          SELECT date_bin('15 minutes', "created_at", TIMESTAMPTZ '2000-01-01 00:00:00+00'), pg_backend_pid() % 8, sum("cost")
            FROM inserted WHERE "cost" <> 0 GROUP BY 1
          ON CONFLICT ("bucket", "shard") DO UPDATE SET "cost" = "llm_spend_buckets"."cost" + EXCLUDED."cost";
          RETURN NULL;
        END
        $$`,
      `CREATE FUNCTION llm_calls_spend_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO "llm_spend_buckets" ("bucket", "shard", "cost")
          SELECT date_bin('15 minutes', "created_at", TIMESTAMPTZ '2000-01-01 00:00:00+00'), pg_backend_pid() % 8, -sum("cost")
            FROM deleted WHERE "cost" <> 0 GROUP BY 1
          ON CONFLICT ("bucket", "shard") DO UPDATE SET "cost" = "llm_spend_buckets"."cost" + EXCLUDED."cost";
          RETURN NULL;
        END
        $$`,
      // Updates that change no cost or time (linking a call to its message) net to nothing and write nothing.
      `CREATE FUNCTION llm_calls_spend_updated() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO "llm_spend_buckets" ("bucket", "shard", "cost")
          SELECT d.bucket, pg_backend_pid() % 8, sum(d.delta)
            FROM (
              SELECT date_bin('15 minutes', "created_at", TIMESTAMPTZ '2000-01-01 00:00:00+00') AS bucket, -"cost" AS delta
                FROM before_update WHERE "cost" <> 0
              UNION ALL
              SELECT date_bin('15 minutes', "created_at", TIMESTAMPTZ '2000-01-01 00:00:00+00'), "cost"
                FROM after_update WHERE "cost" <> 0
            ) d
           GROUP BY d.bucket HAVING sum(d.delta) <> 0
          ON CONFLICT ("bucket", "shard") DO UPDATE SET "cost" = "llm_spend_buckets"."cost" + EXCLUDED."cost";
          RETURN NULL;
        END
        $$`,
      `CREATE TRIGGER "trg_llm_calls_spend_insert" AFTER INSERT ON "llm_calls"
        REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION llm_calls_spend_inserted()`,
      `CREATE TRIGGER "trg_llm_calls_spend_delete" AFTER DELETE ON "llm_calls"
        REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION llm_calls_spend_deleted()`,
      `CREATE TRIGGER "trg_llm_calls_spend_update" AFTER UPDATE ON "llm_calls"
        REFERENCING OLD TABLE AS before_update NEW TABLE AS after_update
        FOR EACH STATEMENT EXECUTE FUNCTION llm_calls_spend_updated()`,
      `ALTER TABLE "llm_calls" ENABLE ALWAYS TRIGGER "trg_llm_calls_spend_insert"`,
      `ALTER TABLE "llm_calls" ENABLE ALWAYS TRIGGER "trg_llm_calls_spend_delete"`,
      `ALTER TABLE "llm_calls" ENABLE ALWAYS TRIGGER "trg_llm_calls_spend_update"`,
      `CREATE FUNCTION llm_calls_truncate_spend() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          DELETE FROM "llm_spend_buckets";
          RETURN NULL;
        END
        $$`,
      `CREATE TRIGGER "trg_llm_calls_truncate_spend" AFTER TRUNCATE ON "llm_calls"
        FOR EACH STATEMENT EXECUTE FUNCTION llm_calls_truncate_spend()`,
      `ALTER TABLE "llm_calls" ENABLE ALWAYS TRIGGER "trg_llm_calls_truncate_spend"`,
      `INSERT INTO "llm_spend_buckets" ("bucket", "shard", "cost")
        SELECT date_bin('15 minutes', "created_at", TIMESTAMPTZ '2000-01-01 00:00:00+00'), 0, sum("cost")
          FROM "llm_calls" WHERE "cost" <> 0 GROUP BY 1`,
      `CREATE TABLE "spend_reservations" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "amount" numeric(14,6) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "expires_at" timestamptz NOT NULL,
        CONSTRAINT "pk_spend_reservations" PRIMARY KEY ("id"),
        CONSTRAINT "chk_spend_reservations_amount" CHECK ("amount" >= 0)
      )`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `DROP TABLE "spend_reservations"`,
      `DROP TRIGGER "trg_llm_calls_truncate_spend" ON "llm_calls"`,
      `DROP TRIGGER "trg_llm_calls_spend_update" ON "llm_calls"`,
      `DROP TRIGGER "trg_llm_calls_spend_delete" ON "llm_calls"`,
      `DROP TRIGGER "trg_llm_calls_spend_insert" ON "llm_calls"`,
      `DROP FUNCTION llm_calls_truncate_spend()`,
      `DROP FUNCTION llm_calls_spend_updated()`,
      `DROP FUNCTION llm_calls_spend_deleted()`,
      `DROP FUNCTION llm_calls_spend_inserted()`,
      `DROP TABLE "llm_spend_buckets"`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
