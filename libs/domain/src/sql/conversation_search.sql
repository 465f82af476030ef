-- The Messages search: a conversation's stored, lower-cased search_text (summary, region and
-- topics), filled by a trigger that also adds its new words to the search_words vocabulary (in
-- replica mode too: ENABLE ALWAYS, so bulk seeds fill it), and search_text_words(), its words as
-- a tsvector for the GIN word index. A word is a run of 3 to 200 letters and digits; a text
-- with a longer run, or over 100,000 characters, is not in the word index. The gateway's search
-- (admin-conversations.service.ts) writes the same expressions.

CREATE OR REPLACE FUNCTION conversation_search_text(summary text, region varchar, topics text[])
RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $function$
BEGIN
  RETURN coalesce(summary, '') || ' ' || coalesce(region, '') || ' ' || coalesce(array_to_string(topics, ' '), '');
END
$function$;

CREATE OR REPLACE FUNCTION search_text_words(search_text text)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT COST 1000 AS $function$
SELECT CASE WHEN (length(search_text) > 100000 OR search_text ~ '[[:alnum:]]{201}') THEN NULL
            ELSE array_to_tsvector(ARRAY(SELECT DISTINCT w FROM regexp_split_to_table(search_text, '[^[:alnum:]]+') AS w WHERE length(w) BETWEEN 3 AND 200)) END
$function$;

CREATE OR REPLACE FUNCTION conversations_fill_search_text()
RETURNS trigger LANGUAGE plpgsql AS $function$
BEGIN
  NEW.search_text := lower(conversation_search_text(NEW.summary, NEW.region, NEW.topics));
  IF TG_OP = 'INSERT' OR NEW.search_text IS DISTINCT FROM OLD.search_text THEN
    -- In word order, so concurrent writers of the same new words cannot deadlock.
    INSERT INTO search_words (word)
      SELECT w FROM (SELECT DISTINCT w FROM regexp_split_to_table(NEW.search_text, '[^[:alnum:]]+') AS w WHERE length(w) BETWEEN 3 AND 200) words(w) ORDER BY w
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NEW;
END
$function$;

DROP TRIGGER IF EXISTS "trg_conversations_search_text" ON "conversations";
CREATE TRIGGER "trg_conversations_search_text" BEFORE INSERT OR UPDATE OF "summary", "region", "topics"
  ON "conversations" FOR EACH ROW EXECUTE FUNCTION conversations_fill_search_text();
ALTER TABLE "conversations" ENABLE ALWAYS TRIGGER "trg_conversations_search_text";
