import type { Client } from 'pg';
import {
  SEED_AI_MODELS,
  SEED_FIRST_NAMES,
  SEED_IMAGE_EXCHANGES,
  SEED_IMAGE_FAILURES,
  SEED_LAST_NAMES,
  SEED_LLM_ERRORS,
  SEED_TEST_USERS,
  SEED_TOPICS,
  SEED_TWILIO_ERRORS,
  SEED_ZIPS,
} from './demo-data';

// Demo data is generated inside Postgres (INSERT ... SELECT over generate_series and random()):
// a million messages never travel through Node. Each batch of users is staged in temporary
// tables first, so conversation and user counters are computed from the same rows the messages
// are, and every table is written once, with its indexes in place.

export interface SeedOptions {
  /** Regular (non-test) users to add. */
  users: number;
  /** How far back the data reaches. */
  days: number;
  /** Empty the demo tables first (admin users, AI models and other settings stay). */
  reset: boolean;
  /** Users per batch (one transaction each). */
  batchSize?: number;
  /** The "now" the data ends at; defaults to the database's clock. */
  now?: Date;
  log?: (line: string) => void;
}

export interface SeedResult {
  users: number;
  conversations: number;
  messages: number;
  llmCalls: number;
  betaSignups: number;
  surveyDeliveries: number;
  seconds: number;
}

/** Marks a database that has demo data; `npm start` seeds only when it is missing. */
export const DEMO_SEEDED_SETTING = 'demo_seeded';

const SANDBOX_ACCOUNT_SID = 'AC00000000000000000000000000000000';

interface DemoSeededValue {
  seededAt: string;
  nextUserIndex: number;
  users: number;
  messages: number;
}

export async function isDemoSeeded(client: Client): Promise<boolean> {
  const result = await client.query(`SELECT 1 FROM "settings" WHERE "key" = $1`, [DEMO_SEEDED_SETTING]);
  return (result.rowCount ?? 0) > 0;
}

async function count(client: Client, sql: string, params: unknown[] = []): Promise<number> {
  const result = await client.query<{ n: string }>(sql, params);
  return Number(result.rows[0]?.n ?? 0);
}

async function createReferenceTables(client: Client): Promise<void> {
  const zips = SEED_ZIPS.map((z, idx) => ({ idx, ...z }));
  const topics = SEED_TOPICS.map((t, idx) => ({
    idx,
    topic: t.topic,
    summary: t.summary,
    key_outcomes: t.keyOutcomes,
    next_steps: t.nextSteps,
    phrase_count: t.exchanges.length,
  }));
  const phrases = SEED_TOPICS.flatMap((t, topicIdx) =>
    t.exchanges.map(([question, answer], i) => ({ topic_idx: topicIdx, n: i + 1, question, answer })),
  );
  const images = SEED_IMAGE_EXCHANGES.map(([question, analysis, answer], i) => ({
    n: i + 1,
    question,
    analysis,
    answer,
  }));
  const errors = SEED_TWILIO_ERRORS.map(([status, code, message], i) => ({
    n: i + 1,
    status,
    code,
    message,
  }));
  const strings = (values: readonly string[]) => values.map((value, i) => ({ n: i + 1, value }));

  await client.query(`
    DROP TABLE IF EXISTS seed_zips, seed_topics, seed_phrases, seed_images, seed_errors, seed_llm_errors,
      seed_image_failures, seed_first_names, seed_last_names, seed_users, seed_convs, seed_exchanges`);
  await client.query(
    `CREATE TEMP TABLE seed_zips AS SELECT * FROM jsonb_to_recordset($1::jsonb)
       AS x(idx int, zip text, city text, state text, region text, zone text, "areaCode" text)`,
    [JSON.stringify(zips)],
  );
  await client.query(
    `CREATE TEMP TABLE seed_topics AS SELECT * FROM jsonb_to_recordset($1::jsonb)
       AS x(idx int, topic text, summary text, key_outcomes text, next_steps text, phrase_count int)`,
    [JSON.stringify(topics)],
  );
  await client.query(
    `CREATE TEMP TABLE seed_phrases AS SELECT * FROM jsonb_to_recordset($1::jsonb)
       AS x(topic_idx int, n int, question text, answer text)`,
    [JSON.stringify(phrases)],
  );
  await client.query(
    `CREATE TEMP TABLE seed_images AS SELECT * FROM jsonb_to_recordset($1::jsonb)
       AS x(n int, question text, analysis text, answer text)`,
    [JSON.stringify(images)],
  );
  await client.query(
    `CREATE TEMP TABLE seed_errors AS SELECT * FROM jsonb_to_recordset($1::jsonb)
       AS x(n int, status text, code text, message text)`,
    [JSON.stringify(errors)],
  );
  for (const [table, values] of [
    ['seed_llm_errors', SEED_LLM_ERRORS],
    ['seed_image_failures', SEED_IMAGE_FAILURES],
    ['seed_first_names', SEED_FIRST_NAMES],
    ['seed_last_names', SEED_LAST_NAMES],
  ] as const) {
    await client.query(
      `CREATE TEMP TABLE ${table} AS SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(n int, value text)`,
      [JSON.stringify(strings(values))],
    );
  }
  await client.query(`ALTER TABLE seed_zips ADD PRIMARY KEY (idx)`);
  await client.query(`ALTER TABLE seed_topics ADD PRIMARY KEY (idx)`);
  await client.query(`ALTER TABLE seed_phrases ADD PRIMARY KEY (topic_idx, n)`);
  await client.query(`
    CREATE TEMP TABLE seed_users (
      id uuid PRIMARY KEY, i int NOT NULL, phone text NOT NULL, zip_idx int NOT NULL,
      created_at timestamptz NOT NULL, has_location boolean NOT NULL, refused boolean NOT NULL,
      experience text, context text, soil text, opted_out boolean NOT NULL, n_conv int NOT NULL,
      mood text NOT NULL, is_test boolean NOT NULL, test_name text)`);
  await client.query(`
    CREATE TEMP TABLE seed_convs (
      id uuid PRIMARY KEY, user_id uuid NOT NULL, started_at timestamptz NOT NULL, exchanges int NOT NULL,
      gap_s int NOT NULL, topic_idx int NOT NULL, sentiment text NOT NULL, opt_out boolean NOT NULL,
      is_test boolean NOT NULL, zone text, city text, region text, experience text)`);
  await client.query(`
    CREATE TEMP TABLE seed_exchanges (
      conversation_id uuid NOT NULL, user_id uuid NOT NULL, k int NOT NULL, in_id uuid NOT NULL, out_id uuid NOT NULL,
      in_at timestamptz NOT NULL, out_at timestamptz NOT NULL, response_ms int NOT NULL, topic_idx int NOT NULL,
      phrase_n int NOT NULL, sentiment text, tier text NOT NULL, model text, prompt_tokens int NOT NULL,
      completion_tokens int NOT NULL, cost numeric(14,6) NOT NULL, status text NOT NULL, error_code text,
      error_message text, image_n int, image_ok boolean, image_tokens int, llm_error text, is_stop boolean NOT NULL,
      is_test boolean NOT NULL, zone text, city text, r_misc float8 NOT NULL)`);
}

/** Fills seed_users with regular demo users numbered [from, to). */
async function stageRegularUsers(
  client: Client,
  from: number,
  to: number,
  now: Date,
  days: number,
): Promise<void> {
  await client.query(
    `INSERT INTO seed_users
     SELECT gen_random_uuid(), g, '+1' || z."areaCode" || (2000000 + g % 8000000)::text, z.idx, s.created_at,
            s.r_loc > 0.05, s.r_loc <= 0.02,
            (ARRAY[NULL, 'beginner', 'beginner', 'intermediate', 'intermediate', 'experienced'])[1 + floor(random() * 6)::int],
            (ARRAY[NULL, 'raised beds', 'backyard garden', 'containers on a balcony', 'community garden plot', 'small farm'])[1 + floor(random() * 6)::int],
            (ARRAY[NULL, NULL, 'clay', 'loam', 'sandy', 'rocky'])[1 + floor(random() * 6)::int],
            random() < 0.02,
            1 + floor(power(random(), 2) * 5)::int,
            (ARRAY['positive', 'positive', 'neutral', 'neutral', 'neutral', 'negative', 'frustrated'])[1 + floor(random() * 7)::int],
            false, NULL
     FROM generate_series($1::int, $2::int - 1) g
     CROSS JOIN LATERAL (
       SELECT $3::timestamptz - interval '75 minutes' - (($4::float8 * 86400 - 4500) * power(random() + 0 * g, 1.3)) * interval '1 second' AS created_at,
              random() + 0 * g AS r_loc,
              floor(random() * (SELECT count(*) FROM seed_zips) + 0 * g)::int AS zip_idx
     ) s
     JOIN seed_zips z ON z.idx = s.zip_idx`,
    [from, to, now, days],
  );
}

/** Fills seed_users with the simulator's test users that do not exist yet. */
async function stageTestUsers(client: Client, now: Date, days: number): Promise<void> {
  const rows = SEED_TEST_USERS.map(([phone, name, zipIndex], i) => ({ phone, name, zip_idx: zipIndex, i }));
  await client.query(
    `INSERT INTO seed_users
     SELECT gen_random_uuid(), -1 - t.i, t.phone, t.zip_idx, $2::timestamptz - ($3::float8 * 0.8) * interval '1 day',
            true, false, 'beginner', 'raised beds', 'loam', false, 4, 'neutral', true, t.name
     FROM jsonb_to_recordset($1::jsonb) AS t(phone text, name text, zip_idx int, i int)
     WHERE NOT EXISTS (SELECT 1 FROM "users" u WHERE u.phone_number = t.phone)`,
    [JSON.stringify(rows), now, days],
  );
}

/** Writes the staged users and everything they said and were told. Returns rows written. */
async function writeStagedUsers(
  client: Client,
  now: Date,
): Promise<{ users: number; conversations: number; messages: number; llmCalls: number }> {
  const inserted = await client.query(
    `WITH ins AS (
       INSERT INTO "users" ("id", "phone_number", "created_at", "updated_at", "is_active", "zip_code", "region", "city",
         "state", "hardiness_zone", "profile", "profile_completion_score", "location_refused", "location_asked_at",
         "is_test_user", "test_user_name", "test_user_model")
       SELECT u.id, u.phone, u.created_at, u.created_at, NOT u.opted_out,
              CASE WHEN u.has_location THEN z.zip END, CASE WHEN u.has_location THEN z.region END,
              CASE WHEN u.has_location THEN z.city END, CASE WHEN u.has_location THEN z.state END,
              CASE WHEN u.has_location THEN z.zone END,
              jsonb_strip_nulls(jsonb_build_object(
                'region', CASE WHEN u.has_location THEN z.region END, 'experienceLevel', u.experience,
                'growingContext', u.context, 'soilType', u.soil)),
              (CASE WHEN u.has_location THEN 40 ELSE 0 END) + (CASE WHEN u.experience IS NOT NULL THEN 20 ELSE 0 END)
                + (CASE WHEN u.context IS NOT NULL THEN 20 ELSE 0 END) + (CASE WHEN u.soil IS NOT NULL THEN 20 ELSE 0 END),
              u.refused, CASE WHEN NOT u.has_location THEN u.created_at + interval '20 seconds' END,
              u.is_test, u.test_name, CASE WHEN u.is_test THEN 'gpt-4o-mini' END
       FROM seed_users u JOIN seed_zips z ON z.idx = u.zip_idx
       ON CONFLICT DO NOTHING
       RETURNING "id")
     DELETE FROM seed_users su WHERE NOT EXISTS (SELECT 1 FROM ins WHERE ins."id" = su.id)`,
  );
  void inserted;
  const users = await count(client, `SELECT count(*) AS n FROM seed_users`);
  if (users === 0) return { users: 0, conversations: 0, messages: 0, llmCalls: 0 };

  // Conversations sit in equal slots of the user's lifetime, each at most an hour long and at
  // least 7 hours from the next: the 6-hour idle rule splits them exactly as staged.
  await client.query(
    `INSERT INTO seed_convs
     SELECT gen_random_uuid(), u.id,
            u.created_at + (j * p.w / p.n + random() * CASE WHEN p.n = 1 THEN greatest(p.w - 3600, 0) ELSE p.w / p.n - 28800 END) * interval '1 second',
            CASE WHEN u.is_test THEN 3 ELSE 1 + floor(power(random(), 1.5) * 5)::int END,
            90 + floor(random() * 490)::int,
            floor(random() * (SELECT count(*) FROM seed_topics))::int,
            CASE WHEN random() < 0.6 THEN u.mood
                 ELSE (ARRAY['positive', 'neutral', 'neutral', 'negative', 'frustrated'])[1 + floor(random() * 5)::int] END,
            u.opted_out AND j = p.n - 1, u.is_test,
            CASE WHEN u.has_location THEN z.zone END, CASE WHEN u.has_location THEN z.city END,
            CASE WHEN u.has_location THEN z.region END, u.experience
     FROM seed_users u
     JOIN seed_zips z ON z.idx = u.zip_idx
     CROSS JOIN LATERAL (
       SELECT extract(epoch FROM $1::timestamptz - u.created_at)::float8 AS w,
              greatest(1, least(u.n_conv, floor(extract(epoch FROM $1::timestamptz - u.created_at) / 50400)::int)) AS n
     ) p
     CROSS JOIN LATERAL generate_series(0, p.n - 1) j`,
    [now],
  );

  await client.query(
    `INSERT INTO seed_exchanges
     SELECT s.conversation_id, s.user_id, s.k, s.in_id, s.out_id, s.in_at,
            s.in_at + s.response_ms * interval '1 millisecond', s.response_ms, s.topic_idx, s.phrase_n,
            CASE WHEN s.is_stop THEN NULL ELSE s.sentiment END,
            s.tier,
            CASE s.tier WHEN 'primary' THEN 'gpt-4o-mini' WHEN 'fallback' THEN 'gpt-4o' WHEN 'template' THEN 'offline-advisor' END,
            CASE WHEN s.tier IN ('primary', 'fallback', 'template') THEN s.prompt_tokens ELSE 0 END,
            CASE WHEN s.tier IN ('primary', 'fallback', 'template') THEN s.completion_tokens ELSE 0 END,
            CASE s.tier
              WHEN 'primary' THEN round((s.prompt_tokens * 0.15 + s.completion_tokens * 0.6) / 1000000.0, 6)
              WHEN 'fallback' THEN round((s.prompt_tokens * 2.5 + s.completion_tokens * 10) / 1000000.0, 6)
              ELSE 0 END,
            CASE WHEN s.is_test THEN 'sent' WHEN s.r_status < 0.93 THEN 'delivered' WHEN s.r_status < 0.95 THEN 'sent' ELSE e.status END,
            CASE WHEN NOT s.is_test AND s.r_status >= 0.95 THEN e.code END,
            CASE WHEN NOT s.is_test AND s.r_status >= 0.95 THEN e.message END,
            CASE WHEN s.has_image THEN s.image_n END,
            CASE WHEN s.has_image THEN s.r_misc < 0.85 END,
            CASE WHEN s.has_image THEN 8500 + floor(s.r_misc * 5600)::int END,
            CASE WHEN s.tier = 'fallback' THEN (SELECT value FROM seed_llm_errors WHERE n = s.llm_error_n) END,
            s.is_stop, s.is_test, s.zone, s.city, s.r_misc
     FROM (
       SELECT c.id AS conversation_id, c.user_id, k, gen_random_uuid() AS in_id, gen_random_uuid() AS out_id,
              c.started_at + (k * c.gap_s) * interval '1 second' AS in_at,
              CASE WHEN c.opt_out AND k = c.exchanges - 1 THEN 150 + floor(random() * 200)::int
                   ELSE 900 + floor(random() * 5100)::int END AS response_ms,
              c.topic_idx, 1 + floor(random() * t.phrase_count)::int AS phrase_n,
              CASE WHEN random() < 0.7 THEN c.sentiment ELSE 'neutral' END AS sentiment,
              CASE WHEN c.opt_out AND k = c.exchanges - 1 THEN 'consent'
                   WHEN c.is_test THEN 'primary'
                   ELSE (SELECT CASE WHEN r < 0.90 THEN 'primary' WHEN r < 0.94 THEN 'fallback'
                                     WHEN r < 0.995 THEN 'template' ELSE 'minimal' END
                         FROM (SELECT random() + 0 * k AS r) x) END AS tier,
              350 + floor(random() * 650)::int AS prompt_tokens,
              45 + floor(random() * 120)::int AS completion_tokens,
              random() AS r_status,
              1 + floor(random() * (SELECT count(*) FROM seed_errors))::int AS error_n,
              NOT (c.opt_out AND k = c.exchanges - 1) AND random() < 0.015 AS has_image,
              1 + floor(random() * (SELECT count(*) FROM seed_images))::int AS image_n,
              1 + floor(random() * (SELECT count(*) FROM seed_llm_errors))::int AS llm_error_n,
              random() AS r_misc,
              c.opt_out AND k = c.exchanges - 1 AS is_stop,
              c.is_test, c.zone, c.city
       FROM seed_convs c
       JOIN seed_topics t ON t.idx = c.topic_idx
       CROSS JOIN LATERAL generate_series(0, c.exchanges - 1) k
     ) s
     LEFT JOIN seed_errors e ON e.n = s.error_n`,
  );

  const conversations = await client.query(
    `INSERT INTO "conversations" ("id", "user_id", "started_at", "last_message_at", "ended_at", "message_count",
       "sentiment", "topics", "summary", "key_outcomes", "next_steps", "region", "experience_level", "model_used",
       "is_test_user", "summarized_at")
     SELECT c.id, c.user_id, c.started_at, a.last_at,
            CASE WHEN a.ended THEN a.last_at END,
            c.exchanges * 2,
            CASE WHEN a.ended THEN a.sentiment END,
            ARRAY[t.topic],
            CASE WHEN a.ended THEN t.summary || CASE WHEN c.opt_out THEN ' The user then texted STOP and was unsubscribed.' ELSE '' END END,
            CASE WHEN a.ended THEN t.key_outcomes END,
            CASE WHEN a.ended AND NOT c.opt_out THEN t.next_steps END,
            c.region, c.experience, a.model, c.is_test,
            CASE WHEN a.ended THEN a.last_at + interval '6 hours' END
     FROM seed_convs c
     JOIN seed_topics t ON t.idx = c.topic_idx
     JOIN (
       SELECT conversation_id, max(out_at) AS last_at, max(out_at) < $1::timestamptz - interval '6 hours' AS ended,
              mode() WITHIN GROUP (ORDER BY sentiment) AS sentiment, mode() WITHIN GROUP (ORDER BY model) AS model
       FROM seed_exchanges GROUP BY conversation_id
     ) a ON a.conversation_id = c.id`,
    [now],
  );

  const inbound = await client.query(
    `INSERT INTO "messages" ("id", "user_id", "conversation_id", "direction", "content", "status", "provider_sid",
       "segments", "encoding", "media", "image_processed", "image_content_type", "image_processing_error",
       "image_analysis", "sentiment", "topics", "is_test_user", "kind", "created_at", "updated_at")
     SELECT e.in_id, e.user_id, e.conversation_id, 'inbound', x.content, 'received',
            CASE WHEN NOT e.is_test THEN 'SM' || md5(e.in_id::text) END,
            CASE WHEN length(x.content) <= 160 THEN 1 ELSE ceil(length(x.content) / 153.0)::int END, 'GSM-7',
            CASE WHEN e.image_n IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(jsonb_build_object(
              'url', 'https://api.twilio.com/2010-04-01/Accounts/${SANDBOX_ACCOUNT_SID}/Messages/MM' || md5(e.in_id::text) || '/Media/ME' || md5(e.out_id::text),
              'contentType', 'image/jpeg')) END,
            e.image_ok,
            CASE WHEN e.image_n IS NOT NULL THEN 'image/jpeg' END,
            CASE WHEN e.image_ok = false THEN (SELECT value FROM seed_image_failures WHERE n = 1 + floor(e.r_misc * 100)::int % 3) END,
            CASE WHEN e.image_ok THEN i.analysis END,
            e.sentiment,
            CASE WHEN e.is_stop THEN '{}'::text[] ELSE ARRAY[t.topic] END,
            e.is_test, CASE WHEN e.is_stop THEN 'consent' ELSE 'reply' END, e.in_at, e.in_at
     FROM seed_exchanges e
     JOIN seed_topics t ON t.idx = e.topic_idx
     JOIN seed_phrases p ON p.topic_idx = e.topic_idx AND p.n = e.phrase_n
     LEFT JOIN seed_images i ON i.n = e.image_n
     CROSS JOIN LATERAL (
       SELECT CASE WHEN e.is_stop THEN 'STOP' WHEN e.image_n IS NOT NULL THEN i.question ELSE p.question END AS content
     ) x`,
  );

  const outbound = await client.query(
    `INSERT INTO "messages" ("id", "user_id", "conversation_id", "direction", "content", "status", "provider_sid",
       "error_code", "error_message", "segments", "encoding", "cost", "token_usage", "model_used", "response_time_ms",
       "topics", "is_test_user", "kind", "created_at", "updated_at", "sent_at", "delivered_at")
     SELECT e.out_id, e.user_id, e.conversation_id, 'outbound', x.content, e.status,
            CASE WHEN NOT e.is_test THEN 'SM' || md5(e.out_id::text) END,
            e.error_code, e.error_message,
            CASE WHEN length(x.content) <= 160 THEN 1 ELSE ceil(length(x.content) / 153.0)::int END, 'GSM-7',
            e.cost, e.prompt_tokens + e.completion_tokens, e.model, e.response_ms,
            CASE WHEN e.is_stop THEN '{}'::text[] ELSE ARRAY[t.topic] END,
            e.is_test, CASE WHEN e.is_stop THEN 'consent' ELSE 'reply' END,
            e.out_at,
            CASE WHEN e.status = 'delivered' THEN e.out_at + interval '4 seconds' ELSE e.out_at + interval '1 second' END,
            CASE WHEN e.error_code = '21610' THEN NULL ELSE e.out_at + interval '1 second' END,
            CASE WHEN e.status = 'delivered' THEN e.out_at + interval '4 seconds' END
     FROM seed_exchanges e
     JOIN seed_topics t ON t.idx = e.topic_idx
     JOIN seed_phrases p ON p.topic_idx = e.topic_idx AND p.n = e.phrase_n
     LEFT JOIN seed_images i ON i.n = e.image_n
     CROSS JOIN LATERAL (
       SELECT CASE
         WHEN e.is_stop THEN 'You are unsubscribed from Sprout and will get no more messages. Reply START to resubscribe.'
         WHEN e.tier = 'minimal' THEN 'Sorry, I could not put an answer together just now. Please text your question again in a few minutes.'
         WHEN e.image_ok THEN i.answer
         WHEN e.image_n IS NOT NULL THEN 'I could not open that photo. Could you describe what you see, or send it again as a JPEG?'
         WHEN e.zone IS NULL THEN replace(replace(replace(replace(p.answer, 'In zone {zone}', 'In your zone'), 'zone {zone}', 'your zone'), ' around {city}', ''), '{city}', 'your area')
         ELSE replace(replace(p.answer, '{zone}', e.zone), '{city}', e.city)
       END AS content
     ) x`,
  );

  // Every answer's model call; a fallback answer follows a failed primary call.
  const replies = await client.query(
    `INSERT INTO "llm_calls" ("message_id", "user_id", "conversation_id", "purpose", "model", "prompt_tokens",
       "completion_tokens", "total_tokens", "cost", "latency_ms", "tier", "error", "is_test_user", "created_at")
     SELECT e.out_id, e.user_id, e.conversation_id, 'reply', CASE WHEN e.tier IN ('primary', 'fallback') THEN e.model END,
            e.prompt_tokens, e.completion_tokens, e.prompt_tokens + e.completion_tokens, e.cost,
            greatest(e.response_ms - 250, 20), e.tier, NULL, e.is_test, e.out_at - interval '200 milliseconds'
     FROM seed_exchanges e WHERE e.tier <> 'consent'
     UNION ALL
     SELECT NULL, e.user_id, e.conversation_id, 'reply', 'gpt-4o-mini', 0, 0, 0, 0,
            CASE WHEN e.llm_error LIKE 'Request timed out%' THEN 20000 ELSE 300 + floor(e.r_misc * 900)::int END,
            'primary', e.llm_error, e.is_test, e.in_at + interval '300 milliseconds'
     FROM seed_exchanges e WHERE e.tier = 'fallback'
     UNION ALL
     SELECT e.in_id, e.user_id, e.conversation_id, 'image', 'gpt-4o-mini', e.image_tokens, CASE WHEN e.image_ok THEN 120 ELSE 0 END,
            e.image_tokens + CASE WHEN e.image_ok THEN 120 ELSE 0 END,
            CASE WHEN e.image_ok THEN round((e.image_tokens * 0.15 + 120 * 0.6) / 1000000.0, 6) ELSE 0 END,
            CASE WHEN e.image_ok THEN 2500 + floor(e.r_misc * 4000)::int ELSE 30000 END, 'primary',
            CASE WHEN e.image_ok = false THEN 'image analysis failed' END, e.is_test, e.in_at + interval '2 seconds'
     FROM seed_exchanges e WHERE e.image_n IS NOT NULL
     UNION ALL
     SELECT NULL, c.user_id, c.id, 'summary', 'gpt-4o-mini', 600 + c.message_count * 90, 160,
            760 + c.message_count * 90, round(((600 + c.message_count * 90) * 0.15 + 160 * 0.6) / 1000000.0, 6),
            1800, 'primary', NULL, c.is_test_user, c.summarized_at
     FROM "conversations" c JOIN seed_convs sc ON sc.id = c.id WHERE c.summarized_at IS NOT NULL`,
  );

  await client.query(
    `INSERT INTO "consent_events" ("user_id", "type", "keyword", "source", "message_id", "reply_message_id", "created_at")
     SELECT e.user_id, 'opt_out', 'STOP', 'sms', e.in_id, e.out_id, e.in_at FROM seed_exchanges e WHERE e.is_stop`,
  );

  // The denormalised counters, from the same rows the messages were written from.
  await client.query(
    `UPDATE "users" u
     SET "total_messages" = a.messages, "total_tokens" = a.tokens, "total_cost" = a.cost,
         "last_message_at" = a.last_at, "average_sentiment" = a.sentiment, "updated_at" = a.last_at,
         "opted_out" = a.stop_at IS NOT NULL, "opted_out_at" = a.stop_at
     FROM (
       SELECT user_id, count(*) * 2 AS messages, sum(prompt_tokens + completion_tokens) AS tokens, sum(cost) AS cost,
              max(out_at) AS last_at, mode() WITHIN GROUP (ORDER BY sentiment) AS sentiment,
              max(in_at) FILTER (WHERE is_stop) AS stop_at
       FROM seed_exchanges GROUP BY user_id
     ) a
     WHERE u."id" = a.user_id`,
  );

  return {
    users,
    conversations: conversations.rowCount ?? 0,
    messages: (inbound.rowCount ?? 0) + (outbound.rowCount ?? 0),
    llmCalls: replies.rowCount ?? 0,
  };
}

async function seedAiModels(client: Client): Promise<void> {
  for (const m of SEED_AI_MODELS) {
    await client.query(
      `INSERT INTO "ai_models" ("name", "display_name", "input_price_per_million", "output_price_per_million",
         "max_tokens", "is_active", "is_live", "is_fallback")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
      [m.name, m.displayName, m.input, m.output, m.maxTokens, m.active, m.live, m.fallback],
    );
  }
}

async function seedBetaSignups(client: Client, signups: number, now: Date, days: number): Promise<number> {
  const start = await count(client, `SELECT count(*) AS n FROM "beta_signups"`);
  const result = await client.query(
    `INSERT INTO "beta_signups" ("email", "zip_code", "unique_code", "signup_date", "status", "approved_at")
     SELECT f.value || '.' || l.value || g || '@example.' || (ARRAY['com', 'org', 'net'])[1 + g % 3],
            z.zip, 'SPROUT-' || code.value, s.signup_date,
            CASE WHEN s.r < 0.3 THEN 'approved' ELSE 'pending' END,
            CASE WHEN s.r < 0.3 THEN least(s.signup_date + (1 + s.r * 20) * interval '1 day', $2::timestamptz) END
     FROM generate_series($1::int, $1::int + $4::int - 1) g
     CROSS JOIN LATERAL (
       SELECT $2::timestamptz - ($3::float8 * 86400 * power(random() + 0 * g, 1.2)) * interval '1 second' AS signup_date,
              random() + 0 * g AS r,
              1 + floor(random() * (SELECT count(*) FROM seed_first_names) + 0 * g)::int AS fn,
              1 + floor(random() * (SELECT count(*) FROM seed_last_names) + 0 * g)::int AS ln,
              floor(random() * (SELECT count(*) FROM seed_zips) + 0 * g)::int AS zi
     ) s
     CROSS JOIN LATERAL (
       SELECT string_agg(substr('ABCDEFGHJKMNPQRSTUVWXYZ23456789', 1 + floor(random() * 31)::int, 1), '') AS value
       FROM generate_series(1, 6 + 0 * g)
     ) code
     JOIN seed_first_names f ON f.n = s.fn
     JOIN seed_last_names l ON l.n = s.ln
     JOIN seed_zips z ON z.idx = s.zi
     ON CONFLICT DO NOTHING`,
    [start, now, days, signups],
  );
  return result.rowCount ?? 0;
}

/** Four campaigns, one per status, with their deliveries; only when there are none yet. */
async function seedSurveys(client: Client, now: Date, days: number): Promise<number> {
  if ((await count(client, `SELECT count(*) AS n FROM "survey_campaigns"`)) > 0) return 0;
  const day = 86_400_000;
  const at = (offsetDays: number) => new Date(now.getTime() + offsetDays * day);
  const span = Math.min(days, 60);
  const campaigns = [
    {
      name: 'Spring planting check-in',
      slug: 'spring-check-in',
      status: 'live',
      start: at(-span / 6),
      end: at(20),
      share: 0.3,
      delivered: 0.65,
    },
    {
      name: 'Summer pest survey',
      slug: 'summer-pests',
      status: 'scheduled',
      start: at(7),
      end: at(37),
      share: 0,
      delivered: 0,
    },
    {
      name: 'Winter prep feedback',
      slug: 'winter-prep',
      status: 'completed',
      start: at(-span * 0.85),
      end: at(-span / 2),
      share: 0.25,
      delivered: 1,
    },
    {
      name: 'Beta experience survey',
      slug: 'beta-experience',
      status: 'paused',
      start: at(-span / 3),
      end: null,
      share: 0.15,
      delivered: 0.4,
    },
  ] as const;
  let deliveries = 0;
  for (const c of campaigns) {
    const created = await client.query<{ id: string }>(
      `INSERT INTO "survey_campaigns" ("name", "survey_url", "status", "start_date", "end_date", "created_at")
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING "id"`,
      [
        c.name,
        `https://forms.example.com/sprout/${c.slug}`,
        c.status,
        c.start,
        c.end,
        new Date(c.start.getTime() - 3 * day),
      ],
    );
    const campaignId = created.rows[0]!.id;
    if (c.share > 0) {
      const windowEnd = c.end && c.end < now ? c.end : now;
      // Delivered: attached to the last answer of the user's first conversation in the window.
      const delivered = await client.query(
        `INSERT INTO "survey_deliveries" ("campaign_id", "user_id", "conversation_id", "message_id", "delivered_at", "created_at")
         SELECT $1, c.user_id, c.id, m.id, m.created_at, c.started_at
         FROM (
           SELECT DISTINCT ON (user_id) id, user_id, started_at FROM "conversations"
           WHERE started_at BETWEEN $2 AND $3 AND NOT is_test_user ORDER BY user_id, started_at
         ) c
         CROSS JOIN LATERAL (
           SELECT id, created_at FROM "messages"
           WHERE conversation_id = c.id AND direction = 'outbound' AND kind = 'reply'
           ORDER BY created_at DESC LIMIT 1
         ) m
         WHERE random() < $4`,
        [campaignId, c.start, windowEnd, c.share * c.delivered],
      );
      await client.query(
        `UPDATE "messages" m
         SET "content" = m."content" || E'\\n\\nHelp us improve Sprout: ' || $2,
             "segments" = ceil((length(m."content") + 26 + length($2)) / 153.0)::int
         FROM "survey_deliveries" d WHERE d.message_id = m.id AND d.campaign_id = $1`,
        [campaignId, `https://forms.example.com/sprout/${c.slug}`],
      );
      // Targeted but not reached yet: "Pending".
      const pending =
        c.delivered < 1
          ? await client.query(
              `INSERT INTO "survey_deliveries" ("campaign_id", "user_id", "created_at")
               SELECT $1, u.id, greatest($2::timestamptz, u.created_at) FROM "users" u
               WHERE NOT u.is_test_user AND NOT u.opted_out AND u.created_at < $3 AND random() < $4
               ON CONFLICT DO NOTHING`,
              [campaignId, c.start, windowEnd, c.share * (1 - c.delivered)],
            )
          : { rowCount: 0 };
      deliveries += (delivered.rowCount ?? 0) + (pending.rowCount ?? 0);
    }
    await client.query(
      `UPDATE "survey_campaigns" sc SET
         "delivered_count" = (SELECT count(*) FROM "survey_deliveries" d WHERE d.campaign_id = sc.id AND d.conversation_id IS NOT NULL),
         "total_target_users" = CASE WHEN sc.status = 'scheduled'
           THEN (SELECT count(*) FROM "users" WHERE NOT is_test_user AND NOT opted_out)
           ELSE (SELECT count(*) FROM "survey_deliveries" d WHERE d.campaign_id = sc.id) END
       WHERE sc.id = $1`,
      [campaignId],
    );
  }
  return deliveries;
}

async function resetDemoData(client: Client): Promise<void> {
  await client.query(
    `TRUNCATE "llm_calls", "consent_events", "survey_deliveries", "survey_campaigns", "messages", "conversations",
       "users", "beta_signups" CASCADE`,
  );
  await client.query(`DELETE FROM "settings" WHERE "key" = $1`, [DEMO_SEEDED_SETTING]);
}

/** Adds demo data: options.users regular users (plus the test users once), signups, models and surveys. */
export async function seedDemoData(client: Client, options: SeedOptions): Promise<SeedResult> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const batchSize = options.batchSize ?? 10_000;
  const nowRow = await client.query<{ now: Date }>(`SELECT now() AS now`);
  const now = options.now ?? nowRow.rows[0]!.now;

  if (options.reset) {
    log('reset: emptying users, conversations, messages, llm calls, signups and surveys');
    await resetDemoData(client);
  }
  await createReferenceTables(client);
  await seedAiModels(client);

  const previous = await client.query<{ value: DemoSeededValue }>(
    `SELECT "value" FROM "settings" WHERE "key" = $1`,
    [DEMO_SEEDED_SETTING],
  );
  const firstIndex = previous.rows[0]?.value.nextUserIndex ?? 0;
  const totals = { users: 0, conversations: 0, messages: 0, llmCalls: 0 };
  const add = (part: typeof totals) => {
    totals.users += part.users;
    totals.conversations += part.conversations;
    totals.messages += part.messages;
    totals.llmCalls += part.llmCalls;
  };

  // Every row is generated consistent with its parents, so a superuser skips the per-row triggers
  // (foreign keys, rollup counters) for the bulk batches, a third of the time or more, and
  // recomputes the rollups once at the end; other roles keep the triggers.
  const superuser = await client.query<{ rolsuper: boolean }>(
    `SELECT rolsuper FROM pg_roles WHERE rolname = current_user`,
  );
  const bypassTriggers = superuser.rows[0]?.rolsuper === true;
  const begin = async () => {
    await client.query('BEGIN');
    if (bypassTriggers) await client.query(`SET LOCAL session_replication_role = replica`);
  };

  await begin();
  await stageTestUsers(client, now, options.days);
  add(await writeStagedUsers(client, now));
  await client.query('COMMIT');
  await client.query('TRUNCATE seed_users, seed_convs, seed_exchanges');

  for (let from = firstIndex; from < firstIndex + options.users; from += batchSize) {
    const to = Math.min(from + batchSize, firstIndex + options.users);
    const batchStarted = Date.now();
    await begin();
    await stageRegularUsers(client, from, to, now, options.days);
    const part = await writeStagedUsers(client, now);
    await client.query('COMMIT');
    await client.query('TRUNCATE seed_users, seed_convs, seed_exchanges');
    add(part);
    log(
      `users ${to - firstIndex}/${options.users}: +${part.messages} messages ` +
        `(${((Date.now() - batchStarted) / 1000).toFixed(1)} s, total ${totals.messages})`,
    );
  }

  const signups = await seedBetaSignups(
    client,
    Math.max(25, Math.round(options.users * 0.05)),
    now,
    options.days,
  );
  log(`beta signups: +${signups}`);
  const deliveries = await seedSurveys(client, now, options.days);
  log(`survey campaigns and deliveries: +${deliveries} deliveries`);

  const value: DemoSeededValue = {
    seededAt: new Date().toISOString(),
    nextUserIndex: firstIndex + options.users,
    users: (previous.rows[0]?.value.users ?? 0) + totals.users,
    messages: (previous.rows[0]?.value.messages ?? 0) + totals.messages,
  };
  await client.query(
    `INSERT INTO "settings" ("key", "value", "updated_at") VALUES ($1, $2::jsonb, now())
     ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value", "updated_at" = now()`,
    [DEMO_SEEDED_SETTING, JSON.stringify(value)],
  );
  const rollups = await client.query<{ present: boolean }>(
    `SELECT to_regproc('rollup_rebuild') IS NOT NULL AS present`,
  );
  if (bypassTriggers && rollups.rows[0]?.present) {
    log('rollups: recomputing (the bulk load bypassed their triggers)');
    await client.query(`SELECT rollup_rebuild()`);
  }
  log('analyze: refreshing planner statistics');
  await client.query(
    `ANALYZE "users", "conversations", "messages", "llm_calls", "beta_signups", "survey_deliveries", "consent_events"`,
  );
  return {
    ...totals,
    betaSignups: signups,
    surveyDeliveries: deliveries,
    seconds: (Date.now() - started) / 1000,
  };
}
