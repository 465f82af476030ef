import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The longest search_text the word index covers; longer ones (none in practice: a summary, a
 * region and topics) are found through `idx_conversations_search_long` and LIKE instead. The
 * gateway's search (admin-conversations.service.ts) writes the same expression and limits.
 */
const SEARCH_WORDS_MAX_TEXT = 10000;
/** The longest search word the word index answers; longer words take the trigram path. */
const SEARCH_WORD_MAX_LENGTH = 64;

/**
 * A word-level index for the Messages search (issue 16): several common words that are rare
 * together ("blueberries garlic alaska") made the trigram index intersect huge posting lists (one
 * per trigram of every word). `search_word_windows(search_text)` lists, for every run of letters and
 * digits in the text, the windows of up to 64 characters starting at each of its positions (three
 * characters or more), as a tsvector. A search word of 3 to 64 letters and digits occurs in the text
 * exactly when some window starts with it, so the GIN answers `'word':*` (a prefix query over one
 * posting list per matching window) with the same matches as `search_text LIKE '%word%'`, inside
 * other words too. Texts longer than SEARCH_WORDS_MAX_TEXT get no windows (NULL; a tsvector has a
 * size limit) and a small partial index instead.
 */
export class ConversationSearchWords1797000000000 implements MigrationInterface {
  name = 'ConversationSearchWords1797000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE FUNCTION search_word_windows(text) RETURNS tsvector
         LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
         SELECT CASE WHEN length($1) > ${SEARCH_WORDS_MAX_TEXT} THEN NULL ELSE coalesce((
           SELECT array_to_tsvector(array_agg(DISTINCT substr(w, i, ${SEARCH_WORD_MAX_LENGTH})))
             FROM regexp_split_to_table($1, '[^[:alnum:]]+') AS w, generate_series(1, length(w) - 2) AS i
         ), ''::tsvector) END
       $$`,
      `CREATE INDEX "idx_conversations_search_words" ON "conversations" USING gin (search_word_windows("search_text"))`,
      `CREATE INDEX "idx_conversations_search_long" ON "conversations" ("last_message_at")
         WHERE length("search_text") > ${SEARCH_WORDS_MAX_TEXT}`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `DROP INDEX "idx_conversations_search_long"`,
      `DROP INDEX "idx_conversations_search_words"`,
      `DROP FUNCTION search_word_windows(text)`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
