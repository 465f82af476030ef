import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the admin Users and Messages screens need to stay fast on millions of rows:
 *
 * - Rollups `rollup_totals` (all time) and `rollup_hourly` (UTC hours), kept exact by triggers on
 *   messages, users and conversations, so a poll reads a handful of small rows instead of counting
 *   big tables. Metrics: messages_inbound, messages_reply (outbound except surveys),
 *   messages_proactive (outbound surveys), messages_failed (status failed or undelivered; totals
 *   only), users (by created_at), conversations (totals only). The row triggers are deferred
 *   constraint triggers: they run at commit, so a writer holds a counter row's lock only while it
 *   commits, not for its whole transaction. TRUNCATE clears the table's metrics.
 *   `rollup_rebuild()` recomputes everything (used here to backfill, and after bulk loads that
 *   bypass triggers).
 * - (is_test_user, last_message_at DESC, id DESC) on conversations: pages of the newest
 *   conversations by an index-only walk, deep pages included.
 * - Trigram indexes for substring search: users' phone numbers, and conversations' summary,
 *   region and topics through the IMMUTABLE `conversation_search_text()` (queries must call it
 *   with the same arguments to use the index).
 */
export class AdminInsightIndexes1795319400000 implements MigrationInterface {
  name = 'AdminInsightIndexes1795319400000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE EXTENSION IF NOT EXISTS pg_trgm`,

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

      `CREATE FUNCTION rollup_message_metric(direction varchar, kind varchar) RETURNS varchar
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
          SELECT CASE
            WHEN direction = 'inbound' THEN 'messages_inbound'
            WHEN kind = 'survey' THEN 'messages_proactive'
            ELSE 'messages_reply'
          END
        $$`,
      `CREATE FUNCTION rollup_message_failed(status varchar) RETURNS boolean
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT status IN ('failed', 'undelivered') $$`,

      // Adds delta to the metric's all-time total and, when at is given, to its hour.
      `CREATE FUNCTION rollup_add(p_metric varchar, p_is_test_user boolean, p_at timestamptz, p_delta bigint)
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

      `CREATE FUNCTION rollup_messages_row() RETURNS trigger LANGUAGE plpgsql AS $$
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
        $$`,
      `CREATE CONSTRAINT TRIGGER "trg_messages_rollup" AFTER INSERT OR DELETE ON "messages"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION rollup_messages_row()`,
      `CREATE CONSTRAINT TRIGGER "trg_messages_rollup_update"
        AFTER UPDATE OF "direction", "kind", "status", "is_test_user", "created_at" ON "messages"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (rollup_message_metric(OLD.direction, OLD.kind) <> rollup_message_metric(NEW.direction, NEW.kind)
          OR rollup_message_failed(OLD.status) <> rollup_message_failed(NEW.status)
          OR OLD.is_test_user <> NEW.is_test_user
          OR OLD.created_at <> NEW.created_at)
        EXECUTE FUNCTION rollup_messages_row()`,

      `CREATE FUNCTION rollup_users_row() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP IN ('DELETE', 'UPDATE') THEN
            PERFORM rollup_add('users', OLD.is_test_user, OLD.created_at, -1);
          END IF;
          IF TG_OP IN ('INSERT', 'UPDATE') THEN
            PERFORM rollup_add('users', NEW.is_test_user, NEW.created_at, 1);
          END IF;
          RETURN NULL;
        END
        $$`,
      `CREATE CONSTRAINT TRIGGER "trg_users_rollup" AFTER INSERT OR DELETE ON "users"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION rollup_users_row()`,
      `CREATE CONSTRAINT TRIGGER "trg_users_rollup_update" AFTER UPDATE OF "is_test_user", "created_at" ON "users"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (OLD.is_test_user <> NEW.is_test_user
          OR date_trunc('hour', OLD.created_at, 'UTC') <> date_trunc('hour', NEW.created_at, 'UTC'))
        EXECUTE FUNCTION rollup_users_row()`,

      `CREATE FUNCTION rollup_conversations_row() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP IN ('DELETE', 'UPDATE') THEN
            PERFORM rollup_add('conversations', OLD.is_test_user, NULL, -1);
          END IF;
          IF TG_OP IN ('INSERT', 'UPDATE') THEN
            PERFORM rollup_add('conversations', NEW.is_test_user, NULL, 1);
          END IF;
          RETURN NULL;
        END
        $$`,
      `CREATE CONSTRAINT TRIGGER "trg_conversations_rollup" AFTER INSERT OR DELETE ON "conversations"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION rollup_conversations_row()`,
      `CREATE CONSTRAINT TRIGGER "trg_conversations_rollup_update" AFTER UPDATE OF "is_test_user" ON "conversations"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (OLD.is_test_user <> NEW.is_test_user)
        EXECUTE FUNCTION rollup_conversations_row()`,

      // TRUNCATE fires no row triggers: forget the truncated table's metrics (trigger arguments).
      `CREATE FUNCTION rollup_forget() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          DELETE FROM rollup_totals WHERE metric = ANY (TG_ARGV);
          DELETE FROM rollup_hourly WHERE metric = ANY (TG_ARGV);
          RETURN NULL;
        END
        $$`,
      `CREATE TRIGGER "trg_messages_rollup_truncate" AFTER TRUNCATE ON "messages" FOR EACH STATEMENT
        EXECUTE FUNCTION rollup_forget('messages_inbound', 'messages_reply', 'messages_proactive', 'messages_failed')`,
      `CREATE TRIGGER "trg_users_rollup_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT
        EXECUTE FUNCTION rollup_forget('users')`,
      `CREATE TRIGGER "trg_conversations_rollup_truncate" AFTER TRUNCATE ON "conversations" FOR EACH STATEMENT
        EXECUTE FUNCTION rollup_forget('conversations')`,

      // Recomputes every rollup from the tables; writers wait (SHARE lock) so nothing is missed.
      `CREATE FUNCTION rollup_rebuild() RETURNS void LANGUAGE plpgsql AS $$
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
      `SELECT rollup_rebuild()`,

      // Paging the newest conversations: an index-only walk in the list's exact order (ties by id).
      `CREATE INDEX "idx_conversations_is_test_user_recent" ON "conversations" ("is_test_user", "last_message_at" DESC, "id" DESC)`,
      `CREATE INDEX "idx_users_phone_number_trgm" ON "users" USING gin ("phone_number" gin_trgm_ops)`,
      // plpgsql, not sql: array_to_string is only STABLE, so an sql body would not be inlined, and a
      // non-inlined sql function costs about half again as much per row as plpgsql.
      `CREATE FUNCTION conversation_search_text(summary text, region varchar, topics text[]) RETURNS text
        LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
        BEGIN
          RETURN coalesce(summary, '') || ' ' || coalesce(region, '') || ' ' || coalesce(array_to_string(topics, ' '), '');
        END
        $$`,
      `CREATE INDEX "idx_conversations_search_text_trgm" ON "conversations"
        USING gin (conversation_search_text("summary", "region", "topics") gin_trgm_ops)`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `DROP INDEX "idx_conversations_search_text_trgm"`,
      `DROP FUNCTION conversation_search_text(text, varchar, text[])`,
      `DROP INDEX "idx_users_phone_number_trgm"`,
      `DROP INDEX "idx_conversations_is_test_user_recent"`,
      `DROP TRIGGER "trg_conversations_rollup_truncate" ON "conversations"`,
      `DROP TRIGGER "trg_users_rollup_truncate" ON "users"`,
      `DROP TRIGGER "trg_messages_rollup_truncate" ON "messages"`,
      `DROP TRIGGER "trg_conversations_rollup_update" ON "conversations"`,
      `DROP TRIGGER "trg_conversations_rollup" ON "conversations"`,
      `DROP TRIGGER "trg_users_rollup_update" ON "users"`,
      `DROP TRIGGER "trg_users_rollup" ON "users"`,
      `DROP TRIGGER "trg_messages_rollup_update" ON "messages"`,
      `DROP TRIGGER "trg_messages_rollup" ON "messages"`,
      `DROP FUNCTION rollup_rebuild()`,
      `DROP FUNCTION rollup_forget()`,
      `DROP FUNCTION rollup_conversations_row()`,
      `DROP FUNCTION rollup_users_row()`,
      `DROP FUNCTION rollup_messages_row()`,
      `DROP FUNCTION rollup_add(varchar, boolean, timestamptz, bigint)`,
      `DROP FUNCTION rollup_message_failed(varchar)`,
      `DROP FUNCTION rollup_message_metric(varchar, varchar)`,
      `DROP TABLE "rollup_hourly"`,
      `DROP TABLE "rollup_totals"`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
