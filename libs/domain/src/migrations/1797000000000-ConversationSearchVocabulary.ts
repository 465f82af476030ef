import type { MigrationInterface, QueryRunner } from 'typeorm';

// The words of a search_text: its runs of letters and digits of 3 to 200 characters. A text with a
// longer run, or longer than 100,000 characters, is not in the word index (`LONG_TEXT` finds it
// through its own partial index). The gateway's search (messages/messages.service.ts) writes
// the same expressions.
const WORDS_OF = (text: string): string =>
  `SELECT DISTINCT w FROM regexp_split_to_table(${text}, '[^[:alnum:]]+') AS w WHERE length(w) BETWEEN 3 AND 200`;
const LONG_TEXT = `(length(search_text) > 100000 OR search_text ~ '[[:alnum:]]{201}')`;

/**
 * A word index for the Messages search. Several common words rare together
 * ("blueberries garlic alaska") made the trigram index intersect huge posting lists, one per
 * trigram of every word. Now:
 * - `search_words` holds every word any conversation's search_text has had (the search_text
 *   trigger adds new ones, in replica mode too), with a trigram index: the words containing a
 *   search word are found there, among a vocabulary rather than among conversations;
 * - `search_text_words(search_text)` is a conversation's words as a tsvector, GIN-indexed: the
 *   conversations holding any of those words come from one posting list per word.
 * A search word of letters and digits occurs in search_text exactly when it is inside one of its
 * words, so `LIKE '%word%'` and "any vocabulary word containing it" find the same conversations.
 */
export class ConversationSearchVocabulary1797000000000 implements MigrationInterface {
  name = 'ConversationSearchVocabulary1797000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      // A development database may hold this migration's first form (a prefix index), never released.
      `DROP INDEX IF EXISTS "idx_conversations_search_words"`,
      `DROP FUNCTION IF EXISTS search_word_windows(text)`,
      `CREATE TABLE "search_words" ("word" text NOT NULL, CONSTRAINT "pk_search_words" PRIMARY KEY ("word"))`,
      `CREATE INDEX "idx_search_words_word_trgm" ON "search_words" USING gin ("word" gin_trgm_ops)`,
      `CREATE FUNCTION search_text_words(search_text text) RETURNS tsvector
         LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$
         SELECT CASE WHEN ${LONG_TEXT} THEN NULL
                     ELSE array_to_tsvector(ARRAY(${WORDS_OF('search_text')})) END
       $$`,
      `CREATE OR REPLACE FUNCTION conversations_fill_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          NEW.search_text := lower(conversation_search_text(NEW.summary, NEW.region, NEW.topics));
          IF TG_OP = 'INSERT' OR NEW.search_text IS DISTINCT FROM OLD.search_text THEN
            -- In word order, so concurrent writers of the same new words cannot deadlock.
            INSERT INTO search_words (word)
              SELECT w FROM (${WORDS_OF('NEW.search_text')}) words(w) ORDER BY w
              ON CONFLICT DO NOTHING;
          END IF;
          RETURN NEW;
        END
        $$`,
      `INSERT INTO search_words (word)
         SELECT DISTINCT w FROM conversations, regexp_split_to_table(search_text, '[^[:alnum:]]+') AS w
          WHERE length(w) BETWEEN 3 AND 200`,
      `CREATE INDEX "idx_conversations_search_words" ON "conversations" USING gin (search_text_words("search_text"))`,
      `CREATE INDEX "idx_conversations_search_long" ON "conversations" ("last_message_at") WHERE ${LONG_TEXT}`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `DROP INDEX "idx_conversations_search_long"`,
      `DROP INDEX "idx_conversations_search_words"`,
      `CREATE OR REPLACE FUNCTION conversations_fill_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          NEW.search_text := lower(conversation_search_text(NEW.summary, NEW.region, NEW.topics));
          RETURN NEW;
        END
        $$`,
      `DROP FUNCTION search_text_words(text)`,
      `DROP TABLE "search_words"`,
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }
}
