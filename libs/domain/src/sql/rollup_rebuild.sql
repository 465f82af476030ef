-- Recomputes the admin rollups from the tables (after bulk loads that skip the triggers, such as
-- the demo seed), folding every shard into shard 0.
CREATE OR REPLACE FUNCTION rollup_rebuild()
RETURNS void LANGUAGE plpgsql AS $function$
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
$function$;
