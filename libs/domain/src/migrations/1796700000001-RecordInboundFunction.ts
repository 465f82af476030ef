import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * recordInbound in one round trip. The webhook's transaction was four round trips
 * (begin, the sender's row lock, the statement that writes the message, conversation, consent and
 * counters, commit); on a busy 2-core machine each costs milliseconds. `record_inbound()` runs the
 * same two steps server-side: a plpgsql function's statements each take a new snapshot, so the
 * writing statement still sees every message committed before the sender's lock was granted, and
 * called on its own the call is its own transaction. The message's time is the clock once the
 * lock is held, so one user's messages keep their order. A repeated MessageSid locks the first
 * delivery's user and creates no one; a user created just before a racing first delivery of the
 * same sid (from another number) committed is removed.
 *
 * The statement is the message writer's (libs/domain/src/messages/message-writer.ts): a change to
 * what an inbound message writes is a new migration replacing this function.
 */
export class RecordInboundFunction1796700000001 implements MigrationInterface {
  name = 'RecordInboundFunction1796700000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION record_inbound(
        p_user_id uuid, p_test_only boolean, p_phone varchar, p_is_test_user boolean,
        p_at timestamptz, p_idle_ms float8, p_content text, p_sid varchar, p_media jsonb, p_location jsonb,
        p_consent varchar, p_keyword varchar, p_reply text, p_reply_encoding varchar, p_reply_segments integer,
        OUT o_id uuid, OUT o_user_id uuid, OUT o_conversation_id uuid, OUT o_created_at timestamptz,
        OUT o_created boolean, OUT o_is_consent boolean, OUT o_reply_id uuid, OUT o_is_test_user boolean,
        OUT o_opted_out boolean)
      RETURNS SETOF record LANGUAGE plpgsql VOLATILE AS $fn$
      DECLARE
        v_user uuid;
        v_inserted boolean := false;
        v_now timestamptz;
      BEGIN
        IF p_user_id IS NOT NULL THEN
          SELECT u.id INTO v_user FROM users u
           WHERE u.id = p_user_id AND (p_test_only IS NOT TRUE OR u.is_test_user) FOR UPDATE;
          IF v_user IS NULL THEN RETURN; END IF;
        ELSE
          -- An existing user is locked as is; a new one is inserted, or, when a concurrent first
          -- message inserts it meanwhile, locked by the conflicting update (which changes nothing).
          WITH recorded AS (
            SELECT u.id FROM messages m JOIN users u ON u.id = m.user_id
             WHERE m.provider_sid = p_sid FOR UPDATE OF u
          ),
          existing AS (
            SELECT u.id FROM users u
             WHERE u.phone_number = p_phone AND NOT EXISTS (SELECT 1 FROM recorded) FOR UPDATE
          ),
          created AS (
            INSERT INTO users (phone_number, is_test_user)
            SELECT p_phone, p_is_test_user
             WHERE NOT EXISTS (SELECT 1 FROM recorded) AND NOT EXISTS (SELECT 1 FROM existing)
            ON CONFLICT (phone_number) DO UPDATE SET phone_number = EXCLUDED.phone_number
            RETURNING users.id, xmax = 0 AS inserted
          )
          SELECT s.id, s.inserted INTO v_user, v_inserted FROM (
            SELECT recorded.id, false AS inserted FROM recorded
            UNION ALL SELECT existing.id, false FROM existing
            UNION ALL SELECT created.id, created.inserted FROM created
          ) s LIMIT 1;
          IF v_user IS NULL THEN RAISE EXCEPTION 'The sender was neither found nor created'; END IF;
        END IF;
        v_now := clock_timestamp();

          WITH
          clock AS (
            SELECT at, confirms, CASE WHEN NOT confirms THEN at
                            ELSE greatest(v_now, at + interval '1 millisecond') END AS last_at,
                   CASE WHEN confirms THEN 2 ELSE 1 END AS added
            FROM (SELECT coalesce(p_at::timestamptz, v_now) AS at,
                         -- One confirmation per opt-out: a user already opted out gets none for another one.
                         p_consent::varchar IS NOT NULL
                           AND NOT (p_consent::varchar = 'opt_out' AND (SELECT opted_out FROM users WHERE id = v_user)) AS confirms) given
          ),
          sender AS (SELECT id, is_test_user, opted_out, region, profile FROM users WHERE id = v_user),
          duplicate AS (SELECT id, user_id, conversation_id, created_at FROM messages WHERE provider_sid = p_sid::varchar),
          continued AS (
            SELECT c.id FROM (
            SELECT latest.id FROM (
              SELECT id, ended_at, last_message_at FROM conversations WHERE user_id = v_user
              ORDER BY last_message_at DESC, id DESC LIMIT 1
            ) latest
            WHERE latest.ended_at IS NULL
              AND latest.last_message_at BETWEEN (SELECT at FROM clock) - p_idle_ms::float8 * interval '1 millisecond'
                                             AND (SELECT at FROM clock) + p_idle_ms::float8 * interval '1 millisecond') c
            WHERE NOT EXISTS (SELECT 1 FROM duplicate)
          ),
          opened AS (
            INSERT INTO conversations (user_id, started_at, last_message_at, message_count, is_test_user, region, experience_level)
            SELECT sender.id, clock.at, clock.last_at, clock.added, sender.is_test_user,
                   coalesce(sender.region, sender.profile ->> 'region'), sender.profile ->> 'experienceLevel'
            FROM sender, clock
            WHERE NOT EXISTS (SELECT 1 FROM continued) AND NOT EXISTS (SELECT 1 FROM duplicate)
            RETURNING id
          ),
          continued_counts AS (
            UPDATE conversations c
               SET message_count = c.message_count + clock.added, last_message_at = greatest(c.last_message_at, clock.last_at)
              FROM clock
             WHERE c.id = (SELECT id FROM continued)
          ),
          conversation AS (SELECT id FROM continued UNION ALL SELECT id FROM opened),
          inbound AS (
            INSERT INTO messages (user_id, conversation_id, direction, content, status, kind, provider_sid, media,
                                  image_content_type, location_hint, is_test_user, created_at, updated_at)
            SELECT sender.id, conversation.id, 'inbound', p_content, 'received',
                   CASE WHEN p_consent::varchar IS NULL THEN 'reply' ELSE 'consent' END,
                   p_sid::varchar, p_media::jsonb, p_media::jsonb -> 0 ->> 'contentType', p_location::jsonb, sender.is_test_user, clock.at, clock.at
            FROM sender, conversation, clock
            RETURNING id, conversation_id, created_at
          ),
          confirmation AS (
            INSERT INTO messages (user_id, conversation_id, direction, content, status, kind, is_test_user,
                                  encoding, segments, created_at, updated_at)
            SELECT sender.id, inbound.conversation_id, 'outbound', p_reply, 'queued', 'consent', sender.is_test_user,
                   p_reply_encoding, p_reply_segments, clock.last_at, clock.last_at
            FROM sender, inbound, clock
            WHERE clock.confirms
            RETURNING id
          ),
          consent_event AS (
            INSERT INTO consent_events (user_id, type, keyword, source, message_id, reply_message_id)
            SELECT sender.id, p_consent, p_keyword, 'sms', inbound.id, confirmation.id
              FROM sender CROSS JOIN inbound LEFT JOIN confirmation ON true
             WHERE p_consent::varchar IS NOT NULL
          ),
          user_counts AS (
            UPDATE users u
               SET total_messages = u.total_messages + clock.added,
                   last_message_at = greatest(u.last_message_at, clock.last_at),
                   is_active = true,
                   opted_out = CASE p_consent::varchar WHEN 'opt_out' THEN true WHEN 'opt_in' THEN false ELSE u.opted_out END,
                   opted_out_at = CASE
                     WHEN p_consent::varchar = 'opt_out' AND NOT u.opted_out THEN clock.at
                     WHEN p_consent::varchar = 'opt_in' AND u.opted_out THEN NULL
                     ELSE u.opted_out_at END,
                   updated_at = now()
              FROM clock
             WHERE u.id = v_user AND NOT EXISTS (SELECT 1 FROM duplicate)
            RETURNING u.opted_out
          )
          SELECT inbound.id, sender.id AS user_id, inbound.conversation_id, inbound.created_at, true AS created,
                 p_consent::varchar IS NOT NULL AS is_consent, (SELECT id FROM confirmation) AS reply_id,
                 sender.is_test_user, (SELECT opted_out FROM user_counts) AS opted_out
            FROM inbound, sender
          UNION ALL
          SELECT duplicate.id, duplicate.user_id, duplicate.conversation_id, duplicate.created_at, false,
                 event.id IS NOT NULL, event.reply_message_id, sender.is_test_user, sender.opted_out
            FROM duplicate CROSS JOIN sender
            LEFT JOIN LATERAL (
              SELECT id, reply_message_id FROM consent_events
               WHERE message_id = duplicate.id AND source = 'sms' ORDER BY created_at LIMIT 1
            ) event ON true
        INTO o_id, o_user_id, o_conversation_id, o_created_at, o_created, o_is_consent, o_reply_id,
             o_is_test_user, o_opted_out;

        IF o_id IS NULL THEN RAISE EXCEPTION 'The inbound message was not recorded'; END IF;
        IF NOT o_created AND v_inserted THEN
          -- The sid's first delivery committed after our lock: this delivery's new user has no
          -- message, so it goes (its rollup insert and delete cancel out).
          DELETE FROM users WHERE users.id = v_user;
        END IF;
        RETURN NEXT;
      END
      $fn$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP FUNCTION record_inbound(uuid, boolean, varchar, boolean, timestamptz, float8, text, varchar, jsonb, jsonb, varchar, varchar, text, varchar, integer)`,
    );
  }
}
