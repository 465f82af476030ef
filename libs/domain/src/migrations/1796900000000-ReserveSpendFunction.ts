import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Admitting a model call in one round trip. `reserveSpend` was a transaction of seven
 * round trips (begin, the advisory lock, expired reservations dropped, spend read, limit read,
 * reservation inserted, commit), and every reply's admission waited on that one lock while the
 * others made theirs: on the pipeline benchmark the lock wait alone was 137 ms per reply with 16
 * replies at once. `reserve_spend()` does the same steps server-side under the same transaction
 * advisory lock, which its caller's implicit transaction releases at once.
 *
 * The limit is read as `readSpendingLimit` reads it (libs/domain/src/ledger/statements.ts): the
 * JSON value of the `spending_limit` setting as a number (a number, a numeric string, null or ""
 * as 0, true/false as 1/0), else `p_default_limit`; a negative or unreadable one is the default.
 */
export class ReserveSpendFunction1796900000000 implements MigrationInterface {
  name = 'ReserveSpendFunction1796900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION spend_limit_of(p_value jsonb, p_default numeric) RETURNS numeric
      LANGUAGE plpgsql IMMUTABLE AS $fn$
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
            ELSIF btrim(p_value #>> '{}') ~ '^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?$' THEN
              v := btrim(p_value #>> '{}')::numeric;
            ELSE RETURN p_default;
            END IF;
          ELSE RETURN p_default;
        END CASE;
        RETURN CASE WHEN v >= 0 THEN v ELSE p_default END;
      END
      $fn$`);
    await queryRunner.query(`
      CREATE FUNCTION reserve_spend(
        p_amount numeric, p_since timestamptz, p_first_bucket timestamptz, p_ttl_ms float8,
        p_default_limit numeric,
        OUT o_spent numeric, OUT o_held numeric, OUT o_limit numeric, OUT o_reservation_id uuid)
      LANGUAGE plpgsql VOLATILE AS $fn$
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
      $fn$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP FUNCTION IF EXISTS reserve_spend(numeric, timestamptz, timestamptz, float8, numeric)`,
    );
    await queryRunner.query(`DROP FUNCTION IF EXISTS spend_limit_of(jsonb, numeric)`);
  }
}
