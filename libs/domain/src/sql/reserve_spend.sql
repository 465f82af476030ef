-- Admits a model call in one round trip (the ledger's reserve): under a transaction advisory lock,
-- drops lapsed reservations, reads the day's spend (whole 15-minute buckets from p_first_bucket,
-- the rows of a partial first quarter from llm_calls), the reservations in flight and the limit,
-- and reserves p_amount for p_ttl_ms only while spent + held is under the limit (else
-- o_reservation_id is null). Called on its own, the statement is its own transaction and releases
-- the lock at once. Under READ COMMITTED its reads after the lock see every admission before it.
CREATE OR REPLACE FUNCTION reserve_spend(
  p_amount numeric, p_since timestamptz, p_first_bucket timestamptz, p_ttl_ms double precision,
  p_default_limit numeric,
  OUT o_spent numeric, OUT o_held numeric, OUT o_limit numeric, OUT o_reservation_id uuid)
RETURNS record LANGUAGE plpgsql AS $function$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('sprout:spend-reservations'));
  DELETE FROM spend_reservations WHERE expires_at <= now();
  SELECT (SELECT coalesce(sum(b.cost), 0) FROM llm_spend_buckets b WHERE b.bucket >= p_first_bucket)
           + (SELECT coalesce(sum(c.cost), 0) FROM llm_calls c
               WHERE c.created_at >= p_since AND c.created_at < p_first_bucket),
         (SELECT coalesce(sum(r.amount), 0) FROM spend_reservations r WHERE r.expires_at > now()),
         spend_limit_of((SELECT s.value FROM settings s WHERE s.key = 'spending_limit'), p_default_limit)
    INTO o_spent, o_held, o_limit;
  IF o_spent + o_held >= o_limit THEN RETURN; END IF;
  INSERT INTO spend_reservations (amount, expires_at)
  VALUES (p_amount, now() + p_ttl_ms * interval '1 millisecond')
  RETURNING id INTO o_reservation_id;
END
$function$;
