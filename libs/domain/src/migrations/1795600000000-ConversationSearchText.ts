import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Conversation search reads a stored, lower-cased `search_text` (summary, region and
 * topics) instead of computing conversation_search_text() per row:
 * - a trigger fills it on insert and when summary, region or topics change; it fires in replica
 *   mode too (ENABLE ALWAYS), so bulk seeds that skip the other triggers still fill it;
 * - the trigram index moves onto the column (rare words: few candidates, rechecked cheaply);
 * - a recency index carries it (INCLUDE), so a common word's search walks newest first reading
 *   the index alone, with no heap visit or function call per row;
 * - (is_test_user, last_message_at DESC) goes: (is_test_user, last_message_at DESC, id DESC)
 *   serves everything it did.
 */
export class ConversationSearchText1795600000000 implements MigrationInterface {
  name = 'ConversationSearchText1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE "conversations" ADD "search_text" text NOT NULL DEFAULT ''`,
      `CREATE FUNCTION conversations_fill_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          NEW.search_text := lower(conversation_search_text(NEW.summary, NEW.region, NEW.topics));
          RETURN NEW;
        END
        $$`,
      `CREATE TRIGGER "trg_conversations_search_text" BEFORE INSERT OR UPDATE OF "summary", "region", "topics"
        ON "conversations" FOR EACH ROW EXECUTE FUNCTION conversations_fill_search_text()`,
      `ALTER TABLE "conversations" ENABLE ALWAYS TRIGGER "trg_conversations_search_text"`,
      `UPDATE "conversations" SET "summary" = "summary"`,
      `DROP INDEX "idx_conversations_search_text_trgm"`,
      `CREATE INDEX "idx_conversations_search_text_trgm" ON "conversations" USING gin ("search_text" gin_trgm_ops)`,
      `CREATE INDEX "idx_conversations_search_recent" ON "conversations" ("is_test_user", "last_message_at" DESC, "id" DESC) INCLUDE ("search_text")`,
      `DROP INDEX "idx_conversations_is_test_user_last_message_at"`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE INDEX "idx_conversations_is_test_user_last_message_at" ON "conversations" ("is_test_user", "last_message_at" DESC)`,
      `DROP INDEX "idx_conversations_search_recent"`,
      `DROP INDEX "idx_conversations_search_text_trgm"`,
      `CREATE INDEX "idx_conversations_search_text_trgm" ON "conversations"
        USING gin (conversation_search_text("summary", "region", "topics") gin_trgm_ops)`,
      `DROP TRIGGER "trg_conversations_search_text" ON "conversations"`,
      `DROP FUNCTION conversations_fill_search_text()`,
      `ALTER TABLE "conversations" DROP COLUMN "search_text"`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
