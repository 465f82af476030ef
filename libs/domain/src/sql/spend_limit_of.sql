-- The daily spending limit a `spending_limit` setting means, as readSpendingLimit reads it
-- (libs/domain/src/ledger): the JSON value as a number (a number, a numeric string, null or ""
-- as 0, true/false as 1/0), else p_default; a negative or unreadable one is the default.
CREATE OR REPLACE FUNCTION spend_limit_of(p_value jsonb, p_default numeric)
RETURNS numeric LANGUAGE plpgsql IMMUTABLE AS $function$
DECLARE
  v numeric;
BEGIN
  IF p_value IS NULL THEN RETURN p_default; END IF;
  CASE jsonb_typeof(p_value)
    WHEN 'number' THEN v := (p_value #>> '{}')::numeric;
    WHEN 'null' THEN v := 0;
    WHEN 'boolean' THEN v := CASE WHEN (p_value #>> '{}')::boolean THEN 1 ELSE 0 END;
    WHEN 'string' THEN
      IF btrim(p_value #>> '{}') = '' THEN v := 0;
      ELSIF btrim(p_value #>> '{}') ~ '^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$' THEN
        v := btrim(p_value #>> '{}')::numeric;
      ELSE RETURN p_default;
      END IF;
    ELSE RETURN p_default;
  END CASE;
  RETURN CASE WHEN v >= 0 THEN v ELSE p_default END;
END
$function$;
