-- The admin rollups: counters per metric (all time, and per UTC hour) kept exact by triggers on
-- messages, users and conversations, read through the views rollup_totals and rollup_hourly.
-- Each writer adds to its own shard (its backend pid mod 32), so concurrent writers do not queue
-- on one row. The row triggers are deferred constraint triggers: they run at commit, so a writer
-- holds a counter row's lock only while it commits. TRUNCATE clears the table's metrics.
-- Metrics: messages_inbound, messages_reply (outbound except surveys and calendar texts),
-- messages_proactive (outbound surveys and garden calendar texts), messages_failed (failed or
-- undelivered; totals only), users (by created_at), conversations (totals only). rollup_rebuild() (its own file) recomputes them.

CREATE OR REPLACE FUNCTION rollup_message_metric(direction varchar, kind varchar)
RETURNS varchar LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $function$
SELECT CASE
  WHEN direction = 'inbound' THEN 'messages_inbound'
  WHEN kind IN ('survey', 'calendar') THEN 'messages_proactive'
  ELSE 'messages_reply'
END
$function$;

CREATE OR REPLACE FUNCTION rollup_message_failed(status varchar)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $function$ SELECT status IN ('failed', 'undelivered') $function$;

-- Adds delta to the metric's all-time total and, when at is given, to its hour.
CREATE OR REPLACE FUNCTION rollup_add(p_metric varchar, p_is_test_user boolean, p_at timestamptz, p_delta bigint)
RETURNS void LANGUAGE plpgsql AS $function$
DECLARE
  v_shard smallint := pg_backend_pid() % 32;
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
$function$;

CREATE OR REPLACE FUNCTION rollup_forget()
RETURNS trigger LANGUAGE plpgsql AS $function$
BEGIN
  DELETE FROM rollup_total_shards WHERE metric = ANY (TG_ARGV);
  DELETE FROM rollup_hourly_shards WHERE metric = ANY (TG_ARGV);
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION rollup_messages_row()
RETURNS trigger LANGUAGE plpgsql AS $function$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM rollup_add(rollup_message_metric(NEW.direction, NEW.kind), NEW.is_test_user, NEW.created_at, 1);
    IF rollup_message_failed(NEW.status) THEN
      PERFORM rollup_add('messages_failed', NEW.is_test_user, NULL, 1);
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM rollup_add(rollup_message_metric(OLD.direction, OLD.kind), OLD.is_test_user, OLD.created_at, -1);
    IF rollup_message_failed(OLD.status) THEN
      PERFORM rollup_add('messages_failed', OLD.is_test_user, NULL, -1);
    END IF;
  ELSE
    IF rollup_message_metric(OLD.direction, OLD.kind) <> rollup_message_metric(NEW.direction, NEW.kind)
       OR OLD.is_test_user <> NEW.is_test_user
       OR date_trunc('hour', OLD.created_at, 'UTC') <> date_trunc('hour', NEW.created_at, 'UTC') THEN
      PERFORM rollup_add(rollup_message_metric(OLD.direction, OLD.kind), OLD.is_test_user, OLD.created_at, -1);
      PERFORM rollup_add(rollup_message_metric(NEW.direction, NEW.kind), NEW.is_test_user, NEW.created_at, 1);
    END IF;
    IF rollup_message_failed(OLD.status) <> rollup_message_failed(NEW.status)
       OR OLD.is_test_user <> NEW.is_test_user THEN
      IF rollup_message_failed(OLD.status) THEN
        PERFORM rollup_add('messages_failed', OLD.is_test_user, NULL, -1);
      END IF;
      IF rollup_message_failed(NEW.status) THEN
        PERFORM rollup_add('messages_failed', NEW.is_test_user, NULL, 1);
      END IF;
    END IF;
  END IF;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION rollup_users_row()
RETURNS trigger LANGUAGE plpgsql AS $function$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM rollup_add('users', OLD.is_test_user, OLD.created_at, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM rollup_add('users', NEW.is_test_user, NEW.created_at, 1);
  END IF;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION rollup_conversations_row()
RETURNS trigger LANGUAGE plpgsql AS $function$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM rollup_add('conversations', OLD.is_test_user, NULL, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM rollup_add('conversations', NEW.is_test_user, NULL, 1);
  END IF;
  RETURN NULL;
END
$function$;

-- Constraint triggers cannot be replaced in place: each is dropped and created again.
DROP TRIGGER IF EXISTS "trg_messages_rollup" ON "messages";
CREATE CONSTRAINT TRIGGER "trg_messages_rollup" AFTER INSERT OR DELETE ON "messages"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION rollup_messages_row();

DROP TRIGGER IF EXISTS "trg_messages_rollup_update" ON "messages";
CREATE CONSTRAINT TRIGGER "trg_messages_rollup_update"
  AFTER UPDATE OF "direction", "kind", "status", "is_test_user", "created_at" ON "messages"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (rollup_message_metric(OLD."direction", OLD."kind") <> rollup_message_metric(NEW."direction", NEW."kind")
        OR rollup_message_failed(OLD."status") <> rollup_message_failed(NEW."status")
        OR OLD."is_test_user" <> NEW."is_test_user"
        OR OLD."created_at" <> NEW."created_at")
  EXECUTE FUNCTION rollup_messages_row();

DROP TRIGGER IF EXISTS "trg_messages_rollup_truncate" ON "messages";
CREATE TRIGGER "trg_messages_rollup_truncate" AFTER TRUNCATE ON "messages" FOR EACH STATEMENT
  EXECUTE FUNCTION rollup_forget('messages_inbound', 'messages_reply', 'messages_proactive', 'messages_failed');

DROP TRIGGER IF EXISTS "trg_users_rollup" ON "users";
CREATE CONSTRAINT TRIGGER "trg_users_rollup" AFTER INSERT OR DELETE ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION rollup_users_row();

DROP TRIGGER IF EXISTS "trg_users_rollup_update" ON "users";
CREATE CONSTRAINT TRIGGER "trg_users_rollup_update" AFTER UPDATE OF "is_test_user", "created_at" ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."is_test_user" <> NEW."is_test_user"
        OR date_trunc('hour', OLD."created_at", 'UTC') <> date_trunc('hour', NEW."created_at", 'UTC'))
  EXECUTE FUNCTION rollup_users_row();

DROP TRIGGER IF EXISTS "trg_users_rollup_truncate" ON "users";
CREATE TRIGGER "trg_users_rollup_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT
  EXECUTE FUNCTION rollup_forget('users');

DROP TRIGGER IF EXISTS "trg_conversations_rollup" ON "conversations";
CREATE CONSTRAINT TRIGGER "trg_conversations_rollup" AFTER INSERT OR DELETE ON "conversations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION rollup_conversations_row();

DROP TRIGGER IF EXISTS "trg_conversations_rollup_update" ON "conversations";
CREATE CONSTRAINT TRIGGER "trg_conversations_rollup_update" AFTER UPDATE OF "is_test_user" ON "conversations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."is_test_user" <> NEW."is_test_user")
  EXECUTE FUNCTION rollup_conversations_row();

DROP TRIGGER IF EXISTS "trg_conversations_rollup_truncate" ON "conversations";
CREATE TRIGGER "trg_conversations_rollup_truncate" AFTER TRUNCATE ON "conversations" FOR EACH STATEMENT
  EXECUTE FUNCTION rollup_forget('conversations');
