import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The daily spending limit as a hard cap (issue 11):
 * - `llm_spend_buckets`: model-call cost per 15 minutes, kept by a trigger on llm_calls whoever
 *   writes the call (replies, summaries, images), so today's spend is a sum of at most 96 x 8
 *   rows in any time zone (offsets are whole quarter hours). Eight shards per bucket, chosen by
 *   backend, so concurrent writers never wait on one row. Emptying llm_calls empties it. The
 *   triggers fire in replica mode too (ENABLE ALWAYS), like the other bookkeeping triggers, so
 *   bulk seeds are counted.
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
      `CREATE FUNCTION llm_spend_bucket_add(at timestamptz, amount numeric) RETURNS void LANGUAGE sql AS $$
        INSERT INTO "llm_spend_buckets" ("bucket", "shard", "cost")
        VALUES (date_bin('15 minutes', at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), pg_backend_pid() % 8, amount)
        ON CONFLICT ("bucket", "shard") DO UPDATE SET "cost" = "llm_spend_buckets"."cost" + EXCLUDED."cost"
        $$`,
      `CREATE FUNCTION llm_calls_track_spend() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP <> 'INSERT' AND OLD.cost <> 0 THEN
            PERFORM llm_spend_bucket_add(OLD.created_at, -OLD.cost);
          END IF;
          IF TG_OP <> 'DELETE' AND NEW.cost <> 0 THEN
            PERFORM llm_spend_bucket_add(NEW.created_at, NEW.cost);
          END IF;
          RETURN NULL;
        END
        $$`,
      `CREATE TRIGGER "trg_llm_calls_track_spend" AFTER INSERT OR DELETE OR UPDATE OF "cost", "created_at"
        ON "llm_calls" FOR EACH ROW EXECUTE FUNCTION llm_calls_track_spend()`,
      `ALTER TABLE "llm_calls" ENABLE ALWAYS TRIGGER "trg_llm_calls_track_spend"`,
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
      `DROP FUNCTION llm_calls_truncate_spend()`,
      `DROP TRIGGER "trg_llm_calls_track_spend" ON "llm_calls"`,
      `DROP FUNCTION llm_calls_track_spend()`,
      `DROP FUNCTION llm_spend_bucket_add(timestamptz, numeric)`,
      `DROP TABLE "llm_spend_buckets"`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
