-- llm_spend_buckets: model-call cost per 15 minutes, kept by statement triggers on llm_calls
-- whoever writes a call, so a day's spend is a sum of at most 96 x 8 rows in any time zone
-- (offsets are whole quarter hours). Eight shards per bucket, chosen by backend, so concurrent
-- writers never wait on one row; a statement adds one row per bucket it touches. The triggers
-- fire in replica mode too (ENABLE ALWAYS), so seeds that skip the other triggers are counted.

-- One statement's calls, summed per bucket into this backend's shard.
CREATE OR REPLACE FUNCTION llm_calls_spend_inserted()
RETURNS trigger LANGUAGE plpgsql AS $function$
BEGIN
  INSERT INTO "llm_spend_buckets" ("bucket", "shard", "cost")
  SELECT date_bin('15 minutes', "created_at", TIMESTAMPTZ '2000-01-01 00:00:00+00'), pg_backend_pid() % 8, sum("cost")
    FROM inserted WHERE "cost" <> 0 GROUP BY 1
  ON CONFLICT ("bucket", "shard") DO UPDATE SET "cost" = "llm_spend_buckets"."cost" + EXCLUDED."cost";
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION llm_calls_spend_deleted()
RETURNS trigger LANGUAGE plpgsql AS $function$
BEGIN
  INSERT INTO "llm_spend_buckets" ("bucket", "shard", "cost")
  SELECT date_bin('15 minutes', "created_at", TIMESTAMPTZ '2000-01-01 00:00:00+00'), pg_backend_pid() % 8, -sum("cost")
    FROM deleted WHERE "cost" <> 0 GROUP BY 1
  ON CONFLICT ("bucket", "shard") DO UPDATE SET "cost" = "llm_spend_buckets"."cost" + EXCLUDED."cost";
  RETURN NULL;
END
$function$;

-- Updates that change no cost or time (linking a call to its message) net to nothing and write nothing.
CREATE OR REPLACE FUNCTION llm_calls_spend_updated()
RETURNS trigger LANGUAGE plpgsql AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION llm_calls_truncate_spend()
RETURNS trigger LANGUAGE plpgsql AS $function$
BEGIN
  DELETE FROM "llm_spend_buckets";
  RETURN NULL;
END
$function$;

DROP TRIGGER IF EXISTS "trg_llm_calls_spend_insert" ON "llm_calls";
CREATE TRIGGER "trg_llm_calls_spend_insert" AFTER INSERT ON "llm_calls"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION llm_calls_spend_inserted();
ALTER TABLE "llm_calls" ENABLE ALWAYS TRIGGER "trg_llm_calls_spend_insert";

DROP TRIGGER IF EXISTS "trg_llm_calls_spend_delete" ON "llm_calls";
CREATE TRIGGER "trg_llm_calls_spend_delete" AFTER DELETE ON "llm_calls"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION llm_calls_spend_deleted();
ALTER TABLE "llm_calls" ENABLE ALWAYS TRIGGER "trg_llm_calls_spend_delete";

DROP TRIGGER IF EXISTS "trg_llm_calls_spend_update" ON "llm_calls";
CREATE TRIGGER "trg_llm_calls_spend_update" AFTER UPDATE ON "llm_calls"
  REFERENCING OLD TABLE AS before_update NEW TABLE AS after_update
  FOR EACH STATEMENT EXECUTE FUNCTION llm_calls_spend_updated();
ALTER TABLE "llm_calls" ENABLE ALWAYS TRIGGER "trg_llm_calls_spend_update";

DROP TRIGGER IF EXISTS "trg_llm_calls_truncate_spend" ON "llm_calls";
CREATE TRIGGER "trg_llm_calls_truncate_spend" AFTER TRUNCATE ON "llm_calls"
  FOR EACH STATEMENT EXECUTE FUNCTION llm_calls_truncate_spend();
ALTER TABLE "llm_calls" ENABLE ALWAYS TRIGGER "trg_llm_calls_truncate_spend";
