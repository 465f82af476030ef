import { replyIdSql } from '@sprout/domain';
import { hardinessZoneForZip, lookupZip, regionForState } from '@sprout/gardening';
import { complianceConfirmation } from '@sprout/sms';
import type { Client } from 'pg';
import {
  QUESTION_VARIANTS,
  SEED_AI_MODELS,
  SEED_ANSWER_CLOSERS,
  SEED_ANSWER_OPENERS,
  SEED_FIRST_NAMES,
  SEED_IMAGE_EXCHANGES,
  SEED_IMAGE_FAILURES,
  SEED_IMAGE_TOKENS,
  SEED_IMAGE_UNREAD_ANSWER,
  SEED_LAST_NAMES,
  SEED_LLM_ERRORS,
  SEED_PHONE_LINES,
  SEED_QUESTION_ASIDES,
  SEED_QUESTION_OPENERS,
  SEED_QUESTION_TAILS,
  SEED_TEST_USERS,
  SEED_TOPICS,
  SEED_TWILIO_ERRORS,
  SEED_ZIPS,
} from './demo-data';
import { fictionalPhone } from './phones';

// Demo data is generated inside Postgres (INSERT ... SELECT over generate_series and random()):
// a million messages never travel through Node. Each batch of users is staged in temporary
// tables first, so conversation and user counters are computed from the same rows the messages
// are, and every table is written once, with its indexes in place.
//
// Rows are written as the product writes them (plain inserts: the seed never goes through
// record_inbound, so it leaves no text awaiting a reply): a reply has the id ai-responder derives
// from its text's id, model calls and image analyses are priced and timed as ai-responder and
// image-processor record them, and the last hour before the seed's "now" is calm (no failures),
// so monitoring does not read a handful of random failures among a few messages as an incident.

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
  /** Origin the seeded MMS media URLs point at: the sandbox's fake Twilio, never Twilio's hosts. */
  mediaBaseUrl?: string;
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

/** The sandbox's account and the fake Twilio's address as `npm start` runs it. */
export const SANDBOX_ACCOUNT_SID = `AC${'0'.repeat(32)}`;
const SANDBOX_MEDIA_BASE_URL = 'http://127.0.0.1:3010';

const HOUR_MS = 3_600_000;
/** The last hour before "now" has no failures (monitoring's window). */
const CALM_MS = HOUR_MS;
/** sms-gateway re-reads a reply still "sent" for three days; older ones stay as they are. */
const RECONCILE_WINDOW_MS = 3 * 24 * HOUR_MS;
/** Share of answers below the live model: the fallback model, then the offline advisor's template. */
const FALLBACK_SHARE = 0.015;
const TEMPLATE_SHARE = 0.004;
const IMAGE_SHARE = 0.015;
const IMAGE_FAILURE_SHARE = 0.15;
/** Outbound statuses: the rest is delivered. */
const SENT_SHARE = 0.015;
const UNDELIVERED_SHARE = 0.02;

interface DemoSeededValue {
  seededAt: string;
  nextUserIndex: number;
  users: number;
  messages: number;
  /** How many times each core question has been asked: the next use takes the next variant. */
  phraseUses?: Record<string, number>;
}

interface ModelPrice {
  name: string;
  input: number;
  output: number;
}

interface AreaCodeBlock {
  zipIndex: number;
  areaCode: string;
}

/** Every seeded area code with its ZIP, in a fixed order: user i gets block i mod blocks. */
const areaCodeBlocks = (): AreaCodeBlock[] =>
  SEED_ZIPS.flatMap((zip, zipIndex) => zip.areaCodes.map((areaCode) => ({ zipIndex, areaCode })));

/** How many regular users the fictional numbers allow in all. */
export const seedPhoneCapacity = (): number =>
  areaCodeBlocks().length * (SEED_PHONE_LINES.last - SEED_PHONE_LINES.first + 1);

/** City, state, region and zone of a seeded ZIP, from the product's own lookups. */
export function placeOf(zip: string): { city: string; state: string; region: string; zone: string } {
  const info = lookupZip(zip);
  const zone = hardinessZoneForZip(zip)?.zone;
  const region = info ? regionForState(info.state) : null;
  if (!info || !zone || !region)
    throw new Error(`seed ZIP ${zip} has no city, region or zone in libs/gardening`);
  return { city: info.city, state: info.state, region, zone };
}

/** The test user's number: the reserved line of their ZIP's first area code. */
function testUserPhone(zip: string): string {
  const entry = SEED_ZIPS.find((z) => z.zip === zip);
  const areaCode = entry?.areaCodes[0];
  if (areaCode === undefined) throw new Error(`test user ZIP ${zip} is not a seed ZIP`);
  return fictionalPhone(areaCode, SEED_PHONE_LINES.testUsers);
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
/** A step coprime to the variant count: v -> v * step mod count visits every variant once. */
const VARIANT_STEP = [2011, 2017, 2027, 2029, 2039].find((p) => gcd(p, QUESTION_VARIANTS) === 1) ?? 1;

export async function isDemoSeeded(client: Client): Promise<boolean> {
  const result = await client.query(`SELECT 1 FROM "settings" WHERE "key" = $1`, [DEMO_SEEDED_SETTING]);
  return (result.rowCount ?? 0) > 0;
}

async function count(client: Client, sql: string, params: unknown[] = []): Promise<number> {
  const result = await client.query<{ n: string }>(sql, params);
  return Number(result.rows[0]?.n ?? 0);
}

/** A log-normal draw around `median`, clamped to [min, max], in SQL (one per row). */
const lognormalSql = (median: number, sigma: number, min: number, max: number): string =>
  `least(${max}, greatest(${min}, round(${median} * exp(${sigma} * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())))))::int`;

/** A whole number in [min, max] in SQL. */
const betweenSql = (min: string, max: string): string =>
  `(${min} + floor(random() * (${max} - ${min} + 1)))::int`;

async function createReferenceTables(client: Client, phraseUses: Record<string, number>): Promise<void> {
  const zips = SEED_ZIPS.map((z, idx) => ({ idx, zip: z.zip, ...placeOf(z.zip) }));
  const blocks = areaCodeBlocks().map((b, block) => ({ block, zip_idx: b.zipIndex, area_code: b.areaCode }));
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
  const llmErrors = SEED_LLM_ERRORS.map(([kind, message, minMs, maxMs], i) => ({
    n: i + 1,
    kind,
    message,
    min_ms: minMs,
    max_ms: maxMs,
  }));
  const imageFailures = SEED_IMAGE_FAILURES.map((f, i) => ({
    n: i + 1,
    stage: f.stage,
    content_type: f.contentType,
    error: f.error,
    min_ms: f.minMs,
    max_ms: f.maxMs,
  }));
  const uses = Object.entries(phraseUses).map(([key, used]) => ({ key, used }));
  const strings = (values: readonly string[]) => values.map((value, i) => ({ n: i, value }));

  await client.query(`
    DROP TABLE IF EXISTS seed_zips, seed_blocks, seed_topics, seed_phrases, seed_images, seed_errors, seed_llm_errors,
      seed_image_failures, seed_first_names, seed_last_names, seed_q_openers, seed_q_asides, seed_q_tails,
      seed_a_openers, seed_a_closers, seed_phrase_uses, seed_users, seed_convs, seed_exchanges`);
  const table = async (name: string, columns: string, rows: unknown[]) =>
    client.query(
      `CREATE TEMP TABLE ${name} AS SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${columns})`,
      [JSON.stringify(rows)],
    );
  const rowTables: Array<[name: string, columns: string, rows: unknown[]]> = [
    ['seed_zips', 'idx int, zip text, city text, state text, region text, zone text', zips],
    ['seed_blocks', 'block int, zip_idx int, area_code text', blocks],
    [
      'seed_topics',
      'idx int, topic text, summary text, key_outcomes text, next_steps text, phrase_count int',
      topics,
    ],
    ['seed_phrases', 'topic_idx int, n int, question text, answer text', phrases],
    ['seed_images', 'n int, question text, analysis text, answer text', images],
    ['seed_errors', 'n int, status text, code text, message text', errors],
    ['seed_llm_errors', 'n int, kind text, message text, min_ms int, max_ms int', llmErrors],
    [
      'seed_image_failures',
      'n int, stage text, content_type text, error text, min_ms int, max_ms int',
      imageFailures,
    ],
    ['seed_phrase_uses', 'key text, used int', uses],
  ];
  for (const [name, columns, rows] of rowTables) await table(name, columns, rows);
  for (const [name, values] of [
    ['seed_first_names', SEED_FIRST_NAMES],
    ['seed_last_names', SEED_LAST_NAMES],
    ['seed_q_openers', SEED_QUESTION_OPENERS],
    ['seed_q_asides', SEED_QUESTION_ASIDES],
    ['seed_q_tails', SEED_QUESTION_TAILS],
    ['seed_a_openers', SEED_ANSWER_OPENERS],
    ['seed_a_closers', SEED_ANSWER_CLOSERS],
  ] as const) {
    await table(name, 'n int, value text', strings(values));
    await client.query(`ALTER TABLE ${name} ADD PRIMARY KEY (n)`);
  }
  await client.query(`ALTER TABLE seed_zips ADD PRIMARY KEY (idx)`);
  await client.query(`ALTER TABLE seed_blocks ADD PRIMARY KEY (block)`);
  await client.query(`ALTER TABLE seed_topics ADD PRIMARY KEY (idx)`);
  await client.query(`ALTER TABLE seed_phrases ADD PRIMARY KEY (topic_idx, n)`);
  await client.query(`ALTER TABLE seed_phrase_uses ADD PRIMARY KEY (key)`);
  await client.query(`
    CREATE TEMP TABLE seed_users (
      id uuid PRIMARY KEY, i int NOT NULL, phone text NOT NULL, zip_idx int NOT NULL,
      created_at timestamptz NOT NULL, has_location boolean NOT NULL, refused boolean NOT NULL,
      experience text, context text, soil text, opted_out boolean NOT NULL, n_conv int NOT NULL,
      mood text NOT NULL, is_test boolean NOT NULL, test_name text)`);
  await client.query(`
    CREATE TEMP TABLE seed_convs (
      id uuid PRIMARY KEY, user_id uuid NOT NULL, started_at timestamptz NOT NULL, exchanges int NOT NULL,
      gap_s int NOT NULL, topic_idx int NOT NULL, phrase_start int NOT NULL, sentiment text NOT NULL,
      opt_out boolean NOT NULL, is_test boolean NOT NULL, zone text, city text, region text, experience text)`);
  // One row per text and its answer; the *_ms columns are the parts of the reply's response time.
  await client.query(`
    CREATE TEMP TABLE seed_exchanges (
      conversation_id uuid NOT NULL, user_id uuid NOT NULL, k int NOT NULL, in_id uuid PRIMARY KEY, out_id uuid,
      in_at timestamptz NOT NULL, out_at timestamptz, response_ms int, topic_idx int NOT NULL, phrase_n int NOT NULL,
      phrase_key text, v int, sentiment text, tier text NOT NULL, model text, prompt_tokens int NOT NULL,
      completion_tokens int NOT NULL, cost numeric(14,6), ok_ms int NOT NULL, overhead_ms int NOT NULL,
      fail1_n int, fail1_ms int, fail2_n int, fail2_ms int,
      image_n int, image_fail_n int, image_ms int, image_prompt_tokens int, image_completion_tokens int,
      image_cost numeric(14,6), r_status float8 NOT NULL, error_n int NOT NULL, a_open int NOT NULL,
      a_close int NOT NULL, status text, error_code text, error_message text, is_stop boolean NOT NULL,
      is_test boolean NOT NULL, calm boolean NOT NULL, zone text, city text)`);
}

/** Fills seed_users with regular demo users numbered [from, to): user i has block i mod blocks. */
async function stageRegularUsers(
  client: Client,
  from: number,
  to: number,
  now: Date,
  days: number,
): Promise<void> {
  await client.query(
    `INSERT INTO seed_users
     SELECT gen_random_uuid(), g, '+1' || b.area_code || '5550' || lpad(($5::int + g / $6::int)::text, 3, '0'), b.zip_idx,
            s.created_at, s.r_loc > 0.05, s.r_loc <= 0.02,
            (ARRAY[NULL, 'beginner', 'beginner', 'intermediate', 'intermediate', 'experienced'])[1 + floor(random() * 6)::int],
            (ARRAY[NULL, 'raised beds', 'backyard garden', 'containers on a balcony', 'community garden plot', 'small farm'])[1 + floor(random() * 6)::int],
            (ARRAY[NULL, NULL, 'clay', 'loam', 'sandy', 'rocky'])[1 + floor(random() * 6)::int],
            random() < 0.02,
            1 + floor(power(random(), 2) * 5)::int,
            (ARRAY['positive', 'positive', 'neutral', 'neutral', 'neutral', 'negative', 'frustrated'])[1 + floor(random() * 7)::int],
            false, NULL
     FROM generate_series($1::int, $2::int - 1) g
     JOIN seed_blocks b ON b.block = g % $6::int
     CROSS JOIN LATERAL (
       SELECT $3::timestamptz - interval '75 minutes' - (($4::float8 * 86400 - 4500) * power(random() + 0 * g, 1.0)) * interval '1 second' AS created_at,
              random() + 0 * g AS r_loc
     ) s`,
    [from, to, now, days, SEED_PHONE_LINES.first, areaCodeBlocks().length],
  );
}

/** Fills seed_users with the simulator's test users that do not exist yet (by name). */
async function stageTestUsers(client: Client, now: Date, days: number): Promise<void> {
  const rows = SEED_TEST_USERS.map(([name, zip], i) => ({
    phone: testUserPhone(zip),
    name,
    zip_idx: SEED_ZIPS.findIndex((z) => z.zip === zip),
    i,
  }));
  await client.query(
    `INSERT INTO seed_users
     SELECT gen_random_uuid(), -1 - t.i, t.phone, t.zip_idx, $2::timestamptz - ($3::float8 * 0.8) * interval '1 day',
            true, false, 'beginner', 'raised beds', 'loam', false, 4, 'neutral', true, t.name
     FROM jsonb_to_recordset($1::jsonb) AS t(phone text, name text, zip_idx int, i int)
     WHERE NOT EXISTS (SELECT 1 FROM "users" u WHERE u.is_test_user AND u.test_user_name = t.name)`,
    [JSON.stringify(rows), now, days],
  );
}

interface BatchContext {
  now: Date;
  live: ModelPrice;
  fallback: ModelPrice;
  mediaBaseUrl: string;
  optOutConfirmation: string;
}

/** Writes the staged users and everything they said and were told. Returns rows written. */
async function writeStagedUsers(
  client: Client,
  ctx: BatchContext,
): Promise<{ users: number; conversations: number; messages: number; llmCalls: number }> {
  const { now, live, fallback } = ctx;
  await client.query(
    `WITH ins AS (
       INSERT INTO "users" ("id", "phone_number", "created_at", "updated_at", "is_active", "zip_code", "region", "city",
         "state", "hardiness_zone", "profile", "profile_completion_score", "location_refused", "location_asked_at",
         "is_test_user", "test_user_name", "test_user_model")
       SELECT u.id, u.phone, u.created_at, u.created_at, true,
              CASE WHEN u.has_location THEN z.zip END, CASE WHEN u.has_location THEN z.region END,
              CASE WHEN u.has_location THEN z.city END, CASE WHEN u.has_location THEN z.state END,
              CASE WHEN u.has_location THEN z.zone END,
              jsonb_strip_nulls(jsonb_build_object(
                'region', CASE WHEN u.has_location THEN z.region END, 'experienceLevel', u.experience,
                'growingContext', u.context, 'soilType', u.soil)),
              (CASE WHEN u.has_location THEN 40 ELSE 0 END) + (CASE WHEN u.experience IS NOT NULL THEN 20 ELSE 0 END)
                + (CASE WHEN u.context IS NOT NULL THEN 20 ELSE 0 END) + (CASE WHEN u.soil IS NOT NULL THEN 20 ELSE 0 END),
              u.refused, CASE WHEN NOT u.has_location THEN u.created_at + interval '20 seconds' END,
              u.is_test, u.test_name, CASE WHEN u.is_test THEN $1 END
       FROM seed_users u JOIN seed_zips z ON z.idx = u.zip_idx
       ON CONFLICT DO NOTHING
       RETURNING "id")
     DELETE FROM seed_users su WHERE NOT EXISTS (SELECT 1 FROM ins WHERE ins."id" = su.id)`,
    [live.name],
  );
  const users = await count(client, `SELECT count(*) AS n FROM seed_users`);
  if (users === 0) return { users: 0, conversations: 0, messages: 0, llmCalls: 0 };

  // A user exists from their first text (that is how the product creates them): the first
  // conversation starts then; later ones sit in equal slots of the user's lifetime, at most one a
  // week, each at most an hour long and at least 7 hours from the next, so the 6-hour idle rule
  // splits them exactly as staged. A conversation asks each of its topic's questions at most
  // once; an opted-out user's last one ends with STOP.
  await client.query(
    `INSERT INTO seed_convs
     SELECT c.id, c.user_id, c.started_at,
            least(c.wanted, t.phrase_count) + CASE WHEN c.opt_out THEN 1 ELSE 0 END,
            c.gap_s, c.topic_idx, c.phrase_start, c.sentiment, c.opt_out, c.is_test, c.zone, c.city, c.region, c.experience
     FROM (
       SELECT gen_random_uuid() AS id, u.id AS user_id,
              CASE WHEN j = 0 THEN u.created_at
                   ELSE u.created_at + (j * p.w / p.n + random() * (p.w / p.n - 28800)) * interval '1 second' END AS started_at,
              CASE WHEN u.is_test THEN 3 ELSE 1 + floor(power(random(), 1.5) * 5)::int END AS wanted,
              90 + floor(random() * 490)::int AS gap_s,
              floor(random() * (SELECT count(*) FROM seed_topics))::int AS topic_idx,
              floor(random() * 5)::int AS phrase_start,
              CASE WHEN random() < 0.6 THEN u.mood
                   ELSE (ARRAY['positive', 'neutral', 'neutral', 'negative', 'frustrated'])[1 + floor(random() * 5)::int] END AS sentiment,
              u.opted_out AND j = p.n - 1 AS opt_out, u.is_test,
              CASE WHEN u.has_location THEN z.zone END AS zone, CASE WHEN u.has_location THEN z.city END AS city,
              CASE WHEN u.has_location THEN z.region END AS region, u.experience
       FROM seed_users u
       JOIN seed_zips z ON z.idx = u.zip_idx
       CROSS JOIN LATERAL (
         SELECT extract(epoch FROM $1::timestamptz - u.created_at)::float8 AS w,
                least(u.n_conv, 1 + floor(extract(epoch FROM $1::timestamptz - u.created_at) / 604800)::int) AS n
       ) p
       CROSS JOIN LATERAL generate_series(0, p.n - 1) j
     ) c
     JOIN seed_topics t ON t.idx = c.topic_idx`,
    [now],
  );

  // Each text and its answer, in one statement: which tier answered and what failed before it
  // (drawn), how long each part took and how the answer ended (timed), then the response time,
  // price, the reply's id (the one ai-responder derives from the text's id: a text with a reply
  // under that id is answered) and which wording of its question it takes (every use of a core
  // question takes the next variant; uses are counted across runs).
  await client.query(
    `WITH drawn AS MATERIALIZED (
       SELECT s.conversation_id, s.user_id, s.k, gen_random_uuid() AS in_id, s.in_at, s.topic_idx, s.phrase_n,
              CASE WHEN s.is_stop THEN NULL WHEN random() < 0.7 THEN s.sentiment ELSE 'neutral' END AS sentiment,
              s.tier,
              CASE WHEN s.tier IN ('primary', 'fallback') THEN 420 + s.k * 130 + floor(random() * 380)::int ELSE 0 END AS prompt_tokens,
              CASE WHEN s.tier IN ('primary', 'fallback') THEN 60 + floor(random() * 120)::int ELSE 0 END AS completion_tokens,
              CASE s.tier WHEN 'primary' THEN ${lognormalSql(2000, 0.4, 900, 7000)}
                          WHEN 'fallback' THEN ${lognormalSql(2800, 0.35, 1200, 8000)}
                          WHEN 'template' THEN 5 + floor(random() * 40)::int ELSE 0 END AS ok_ms,
              CASE WHEN s.is_stop THEN 0 ELSE 150 + floor(random() * 450)::int END AS overhead_ms,
              CASE WHEN s.tier IN ('fallback', 'template') THEN 1 + floor(random() * (SELECT count(*) FROM seed_llm_errors))::int END AS fail1_n,
              CASE WHEN s.tier = 'template' THEN 1 + floor(random() * (SELECT count(*) FROM seed_llm_errors))::int END AS fail2_n,
              CASE WHEN s.has_image THEN 1 + floor(random() * (SELECT count(*) FROM seed_images))::int END AS image_n,
              CASE WHEN s.has_image AND NOT s.calm AND random() < ${IMAGE_FAILURE_SHARE}
                   THEN 1 + floor(random() * (SELECT count(*) FROM seed_image_failures))::int END AS image_fail_n,
              ${SEED_IMAGE_TOKENS.base} + (ARRAY[2, 4, 4, 4, 6])[1 + floor(random() * 5)::int] * ${SEED_IMAGE_TOKENS.perTile}
                + ${SEED_IMAGE_TOKENS.prompt} + floor(random() * 30)::int AS image_prompt_tokens,
              90 + floor(random() * 170)::int AS image_completion_tokens,
              random() AS r_status, 1 + floor(random() * (SELECT count(*) FROM seed_errors))::int AS error_n,
              floor(random() * (SELECT count(*) FROM seed_a_openers))::int AS a_open,
              floor(random() * (SELECT count(*) FROM seed_a_closers))::int AS a_close,
              s.is_stop, s.is_test, s.calm, s.zone, s.city
       FROM (
         SELECT c.id AS conversation_id, c.user_id, k, c.started_at + (k * c.gap_s) * interval '1 second' AS in_at,
                c.topic_idx, 1 + (c.phrase_start + k) % t.phrase_count AS phrase_n, c.sentiment,
                c.opt_out AND k = c.exchanges - 1 AS is_stop, c.is_test, c.zone, c.city,
                c.started_at + (k * c.gap_s) * interval '1 second' >= $1::timestamptz AS calm,
                CASE WHEN c.opt_out AND k = c.exchanges - 1 THEN 'consent'
                     WHEN c.is_test OR c.started_at + (k * c.gap_s) * interval '1 second' >= $1::timestamptz THEN 'primary'
                     ELSE (SELECT CASE WHEN r < ${FALLBACK_SHARE} THEN 'fallback'
                                       WHEN r < ${FALLBACK_SHARE + TEMPLATE_SHARE} THEN 'template' ELSE 'primary' END
                           FROM (SELECT random() + 0 * k AS r) x) END AS tier,
                NOT (c.opt_out AND k = c.exchanges - 1) AND random() < ${IMAGE_SHARE} AS has_image
         FROM seed_convs c
         JOIN seed_topics t ON t.idx = c.topic_idx
         CROSS JOIN LATERAL generate_series(0, c.exchanges - 1) k
       ) s
     ),
     timed AS MATERIALIZED (
       SELECT d.*,
              CASE WHEN d.fail1_n IS NOT NULL THEN ${betweenSql('f1.min_ms', 'f1.max_ms')} END AS fail1_ms,
              CASE WHEN d.fail2_n IS NOT NULL THEN ${betweenSql('f2.min_ms', 'f2.max_ms')} END AS fail2_ms,
              CASE WHEN d.image_n IS NULL THEN NULL
                   WHEN d.image_fail_n IS NULL THEN ${lognormalSql(3800, 0.3, 2200, 7000)}
                   ELSE ${betweenSql('imf.min_ms', 'imf.max_ms')} END AS image_ms,
              CASE WHEN d.is_test THEN 'sent'
                   WHEN d.is_stop OR d.calm THEN 'delivered'
                   WHEN d.r_status < ${UNDELIVERED_SHARE} THEN err.status
                   WHEN d.r_status < ${UNDELIVERED_SHARE + SENT_SHARE} AND d.in_at < $2::timestamptz THEN 'sent'
                   ELSE 'delivered' END AS status,
              err.code AS err_code, err.message AS err_message,
              coalesce(i.question, p.question) AS phrase_key
       FROM drawn d
       JOIN seed_phrases p ON p.topic_idx = d.topic_idx AND p.n = d.phrase_n
       JOIN seed_errors err ON err.n = d.error_n
       LEFT JOIN seed_images i ON i.n = d.image_n
       LEFT JOIN seed_llm_errors f1 ON f1.n = d.fail1_n
       LEFT JOIN seed_llm_errors f2 ON f2.n = d.fail2_n
       LEFT JOIN seed_image_failures imf ON imf.n = d.image_fail_n
     )
     INSERT INTO seed_exchanges (conversation_id, user_id, k, in_id, out_id, in_at, out_at, response_ms, topic_idx,
       phrase_n, phrase_key, v, sentiment, tier, model, prompt_tokens, completion_tokens, cost, ok_ms, overhead_ms,
       fail1_n, fail1_ms, fail2_n, fail2_ms, image_n, image_fail_n, image_ms, image_prompt_tokens,
       image_completion_tokens, image_cost, r_status, error_n, a_open, a_close, status, error_code, error_message,
       is_stop, is_test, calm, zone, city)
     SELECT t.conversation_id, t.user_id, t.k, t.in_id,
            CASE WHEN t.is_stop THEN gen_random_uuid() ELSE ${replyIdSql('t.in_id')} END,
            t.in_at, t.in_at + CASE WHEN t.is_stop THEN 3 ELSE w.ms END * interval '1 millisecond',
            CASE WHEN NOT t.is_stop THEN w.ms END,
            t.topic_idx, t.phrase_n, t.phrase_key,
            CASE WHEN NOT t.is_stop
                 THEN coalesce(u.used, 0) + row_number() OVER (PARTITION BY t.phrase_key, t.is_stop ORDER BY t.in_at, t.in_id) - 1 END,
            t.sentiment, t.tier,
            CASE t.tier WHEN 'primary' THEN $5 WHEN 'fallback' THEN $6 WHEN 'template' THEN 'offline-advisor' END,
            t.prompt_tokens, t.completion_tokens,
            CASE t.tier
              WHEN 'primary' THEN round((t.prompt_tokens * $3::numeric + t.completion_tokens * $4::numeric) / 1000000.0, 6)
              WHEN 'fallback' THEN round((t.prompt_tokens * $7::numeric + t.completion_tokens * $8::numeric) / 1000000.0, 6)
              ELSE 0 END,
            t.ok_ms, t.overhead_ms, t.fail1_n, t.fail1_ms, t.fail2_n, t.fail2_ms, t.image_n, t.image_fail_n, t.image_ms,
            t.image_prompt_tokens, t.image_completion_tokens,
            CASE WHEN t.image_n IS NOT NULL AND t.image_fail_n IS NULL
                 THEN round((t.image_prompt_tokens * $3::numeric + t.image_completion_tokens * $4::numeric) / 1000000.0, 6) END,
            t.r_status, t.error_n, t.a_open, t.a_close, t.status,
            CASE WHEN t.status IN ('failed', 'undelivered') THEN t.err_code END,
            CASE WHEN t.status IN ('failed', 'undelivered') THEN t.err_message END,
            t.is_stop, t.is_test, t.calm, t.zone, t.city
     FROM timed t
     LEFT JOIN seed_phrase_uses u ON u.key = t.phrase_key
     CROSS JOIN LATERAL (
       SELECT coalesce(t.image_ms, 0) + coalesce(t.fail1_ms, 0) + coalesce(t.fail2_ms, 0) + t.ok_ms + t.overhead_ms AS ms
     ) w`,
    [
      new Date(now.getTime() - CALM_MS),
      new Date(now.getTime() - RECONCILE_WINDOW_MS),
      live.input,
      live.output,
      live.name,
      fallback.name,
      fallback.input,
      fallback.output,
    ],
  );
  await client.query('ANALYZE seed_exchanges');
  await client.query(
    `INSERT INTO seed_phrase_uses (key, used)
     SELECT phrase_key, count(*) FROM seed_exchanges WHERE NOT is_stop GROUP BY phrase_key
     ON CONFLICT (key) DO UPDATE SET used = seed_phrase_uses.used + EXCLUDED.used`,
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
              mode() WITHIN GROUP (ORDER BY sentiment) AS sentiment,
              (array_agg(model ORDER BY k DESC) FILTER (WHERE model IS NOT NULL))[1] AS model
       FROM seed_exchanges GROUP BY conversation_id
     ) a ON a.conversation_id = c.id`,
    [now],
  );

  // The gardener's texts. A photo is analysed as image-processor does it: the analysis, its
  // tokens, cost and model on the text; or the fetch or model error.
  const variant = `((e.v::bigint * ${VARIANT_STEP}) % ${QUESTION_VARIANTS})`;
  const inbound = await client.query(
    `INSERT INTO "messages" ("id", "user_id", "conversation_id", "direction", "content", "status", "provider_sid",
       "segments", "encoding", "media", "image_processed", "image_content_type", "image_processing_error",
       "image_analysis", "token_usage", "cost", "model_used", "sentiment", "topics", "is_test_user", "kind",
       "created_at", "updated_at")
     SELECT e.in_id, e.user_id, e.conversation_id, 'inbound', x.content, 'received',
            CASE WHEN NOT e.is_test THEN 'SM' || md5(e.in_id::text) END,
            CASE WHEN length(x.content) <= 160 THEN 1 ELSE ceil(length(x.content) / 153.0)::int END, 'GSM-7',
            CASE WHEN e.image_n IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
              'url', $1 || '/2010-04-01/Accounts/' || $2 || '/Messages/MM' || md5(e.in_id::text) || '/Media/ME' || md5(e.conversation_id::text || e.k),
              'contentType', x.content_type,
              'analyzedAt', to_char((e.in_at + e.image_ms * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))) END,
            CASE WHEN e.image_n IS NOT NULL THEN e.image_fail_n IS NULL END,
            x.content_type,
            CASE imf.stage WHEN 'fetch' THEN 'Could not fetch the image: ' || imf.error
                           WHEN 'model' THEN 'Image analysis failed: ' || imf.error END,
            CASE WHEN e.image_n IS NOT NULL AND e.image_fail_n IS NULL THEN i.analysis END,
            CASE WHEN e.image_cost IS NOT NULL THEN e.image_prompt_tokens + e.image_completion_tokens ELSE 0 END,
            coalesce(e.image_cost, 0),
            CASE WHEN e.image_cost IS NOT NULL THEN $3 END,
            e.sentiment,
            CASE WHEN e.is_stop THEN '{}'::text[] ELSE ARRAY[t.topic] END,
            e.is_test, CASE WHEN e.is_stop THEN 'consent' ELSE 'reply' END, e.in_at, e.in_at
     FROM seed_exchanges e
     JOIN seed_topics t ON t.idx = e.topic_idx
     JOIN seed_phrases p ON p.topic_idx = e.topic_idx AND p.n = e.phrase_n
     LEFT JOIN seed_images i ON i.n = e.image_n
     LEFT JOIN seed_image_failures imf ON imf.n = e.image_fail_n
     LEFT JOIN seed_q_openers qo ON qo.n = ${variant} % (SELECT count(*) FROM seed_q_openers)
     LEFT JOIN seed_q_asides qa ON qa.n = (${variant} / (SELECT count(*) FROM seed_q_openers)) % (SELECT count(*) FROM seed_q_asides)
     LEFT JOIN seed_q_tails qt ON qt.n = (${variant} / ((SELECT count(*) FROM seed_q_openers) * (SELECT count(*) FROM seed_q_asides)))
                                          % (SELECT count(*) FROM seed_q_tails)
     CROSS JOIN LATERAL (
       SELECT CASE WHEN e.is_stop THEN 'STOP' ELSE qo.value || coalesce(i.question, p.question) || qa.value || qt.value END AS content,
              CASE WHEN e.image_n IS NOT NULL THEN coalesce(imf.content_type, 'image/jpeg') END AS content_type
     ) x`,
    [ctx.mediaBaseUrl, SANDBOX_ACCOUNT_SID, live.name],
  );

  // Sprout's answers: a model's answer with its own opening and closing, the offline advisor's
  // bare template, or the opt-out confirmation (no model, no response time: it is written with the STOP).
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
            e.out_at + interval '1 second',
            CASE WHEN e.status = 'delivered' THEN e.out_at + interval '4 seconds' END
     FROM seed_exchanges e
     JOIN seed_topics t ON t.idx = e.topic_idx
     JOIN seed_phrases p ON p.topic_idx = e.topic_idx AND p.n = e.phrase_n
     JOIN seed_a_openers ao ON ao.n = e.a_open
     JOIN seed_a_closers ac ON ac.n = e.a_close
     LEFT JOIN seed_images i ON i.n = e.image_n
     CROSS JOIN LATERAL (
       SELECT CASE
         WHEN e.image_n IS NOT NULL AND e.image_fail_n IS NULL THEN i.answer
         WHEN e.image_n IS NOT NULL THEN $2
         WHEN e.zone IS NULL THEN replace(replace(replace(replace(p.answer, 'In zone {zone}', 'In your zone'), 'zone {zone}', 'your zone'), ' around {city}', ''), '{city}', 'your area')
         ELSE replace(replace(p.answer, '{zone}', e.zone), '{city}', e.city)
       END AS answer
     ) a
     CROSS JOIN LATERAL (
       SELECT CASE WHEN e.is_stop THEN $1
                   WHEN e.tier = 'template' THEN a.answer
                   ELSE ao.value || a.answer || ac.value END AS content
     ) x`,
    [ctx.optOutConfirmation, SEED_IMAGE_UNREAD_ANSWER],
  );

  // The model calls as they were written: each failed call when it failed, the answering call,
  // the template tier's row (no model), image analyses and summaries.
  const calls = await client.query(
    `INSERT INTO "llm_calls" ("message_id", "user_id", "conversation_id", "purpose", "model", "prompt_tokens",
       "completion_tokens", "total_tokens", "cost", "latency_ms", "tier", "error", "is_test_user", "created_at")
     SELECT e.out_id, e.user_id, e.conversation_id, 'reply', e.model, e.prompt_tokens, e.completion_tokens,
            e.prompt_tokens + e.completion_tokens, e.cost, e.ok_ms, e.tier, NULL, e.is_test,
            e.in_at + (coalesce(e.image_ms, 0) + coalesce(e.fail1_ms, 0) + e.ok_ms) * interval '1 millisecond'
     FROM seed_exchanges e WHERE e.tier IN ('primary', 'fallback')
     UNION ALL
     SELECT e.out_id, e.user_id, e.conversation_id, 'reply', NULL, 0, 0, 0, 0, 0, e.tier, NULL, e.is_test, e.out_at
     FROM seed_exchanges e WHERE e.tier = 'template'
     UNION ALL
     SELECT NULL, e.user_id, e.conversation_id, 'reply', $1, 0, 0, 0, 0, e.fail1_ms, 'primary',
            f.kind || ': ' || replace(f.message, '{model}', $1), e.is_test,
            e.in_at + (coalesce(e.image_ms, 0) + e.fail1_ms) * interval '1 millisecond'
     FROM seed_exchanges e JOIN seed_llm_errors f ON f.n = e.fail1_n
     UNION ALL
     SELECT NULL, e.user_id, e.conversation_id, 'reply', $2, 0, 0, 0, 0, e.fail2_ms, 'fallback',
            f.kind || ': ' || replace(f.message, '{model}', $2), e.is_test,
            e.in_at + (coalesce(e.image_ms, 0) + e.fail1_ms + e.fail2_ms) * interval '1 millisecond'
     FROM seed_exchanges e JOIN seed_llm_errors f ON f.n = e.fail2_n
     UNION ALL
     SELECT e.in_id, e.user_id, e.conversation_id, 'image', $1,
            CASE WHEN e.image_fail_n IS NULL THEN e.image_prompt_tokens ELSE 0 END,
            CASE WHEN e.image_fail_n IS NULL THEN e.image_completion_tokens ELSE 0 END,
            CASE WHEN e.image_fail_n IS NULL THEN e.image_prompt_tokens + e.image_completion_tokens ELSE 0 END,
            coalesce(e.image_cost, 0), e.image_ms, 'primary', imf.error, e.is_test,
            e.in_at + e.image_ms * interval '1 millisecond'
     FROM seed_exchanges e LEFT JOIN seed_image_failures imf ON imf.n = e.image_fail_n
     WHERE e.image_n IS NOT NULL AND (imf.stage IS NULL OR imf.stage = 'model')
     UNION ALL
     SELECT NULL, c.user_id, c.id, 'summary', $1, 600 + c.message_count * 90, 160,
            760 + c.message_count * 90, round(((600 + c.message_count * 90) * $3::numeric + 160 * $4::numeric) / 1000000.0, 6),
            ${lognormalSql(2200, 0.3, 1200, 6000)}, 'primary', NULL, c.is_test_user, c.summarized_at
     FROM "conversations" c JOIN seed_convs sc ON sc.id = c.id WHERE c.summarized_at IS NOT NULL`,
    [live.name, fallback.name, live.input, live.output],
  );

  await client.query(
    `INSERT INTO "consent_events" ("user_id", "type", "keyword", "source", "message_id", "reply_message_id", "created_at")
     SELECT e.user_id, 'opt_out', 'STOP', 'sms', e.in_id, e.out_id, e.in_at FROM seed_exchanges e WHERE e.is_stop`,
  );

  // The denormalised counters, from the same rows the messages were written from (an analysed
  // photo's tokens and cost are on the text that carried it).
  await client.query(
    `UPDATE "users" u
     SET "total_messages" = a.messages, "total_tokens" = a.tokens, "total_cost" = a.cost,
         "last_message_at" = a.last_at, "average_sentiment" = a.sentiment, "updated_at" = a.last_at,
         "opted_out" = a.stop_at IS NOT NULL, "opted_out_at" = a.stop_at
     FROM (
       SELECT user_id, count(*) * 2 AS messages,
              sum(prompt_tokens + completion_tokens + CASE WHEN image_cost IS NOT NULL THEN image_prompt_tokens + image_completion_tokens ELSE 0 END) AS tokens,
              sum(cost + coalesce(image_cost, 0)) AS cost,
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
    llmCalls: calls.rowCount ?? 0,
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

/** The live and fallback models as ai_models has them now (the seed's own when none is marked). */
async function replyModels(client: Client): Promise<{ live: ModelPrice; fallback: ModelPrice }> {
  const rows = await client.query<{ name: string; input: string; output: string; is_live: boolean }>(
    `SELECT "name", "input_price_per_million" AS input, "output_price_per_million" AS output, "is_live"
       FROM "ai_models" WHERE "is_active" AND ("is_live" OR "is_fallback")`,
  );
  const pick = (live: boolean): ModelPrice => {
    const row = rows.rows.find((r) => r.is_live === live);
    const seeded = SEED_AI_MODELS.find((m) => (live ? m.live : m.fallback)) ?? SEED_AI_MODELS[0];
    return row
      ? { name: row.name, input: Number(row.input), output: Number(row.output) }
      : { name: seeded.name, input: seeded.input, output: seeded.output };
  };
  return { live: pick(true), fallback: pick(false) };
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
              floor(random() * (SELECT count(*) FROM seed_first_names) + 0 * g)::int AS fn,
              floor(random() * (SELECT count(*) FROM seed_last_names) + 0 * g)::int AS ln,
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
  // Each was created before it started, and a scheduled one (starting later) was created already.
  const campaigns = [
    {
      name: 'Spring planting check-in',
      slug: 'spring-check-in',
      status: 'live',
      start: at(-span / 6),
      end: at(20),
      created: at(-span / 6 - 3),
      share: 0.3,
      delivered: 0.65,
    },
    {
      name: 'Summer pest survey',
      slug: 'summer-pests',
      status: 'scheduled',
      start: at(7),
      end: at(37),
      created: at(-2),
      share: 0,
      delivered: 0,
    },
    {
      name: 'Winter prep feedback',
      slug: 'winter-prep',
      status: 'completed',
      start: at(-span * 0.85),
      end: at(-span / 2),
      created: at(-span * 0.85 - 3),
      share: 0.25,
      delivered: 1,
    },
    {
      name: 'Beta experience survey',
      slug: 'beta-experience',
      status: 'paused',
      start: at(-span / 3),
      end: null,
      created: at(-span / 3 - 3),
      share: 0.15,
      delivered: 0.4,
    },
  ] as const;
  let deliveries = 0;
  for (const c of campaigns) {
    const url = `https://forms.example.com/sprout/${c.slug}`;
    const created = await client.query<{ id: string }>(
      `INSERT INTO "survey_campaigns" ("name", "survey_url", "status", "start_date", "end_date", "created_at")
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING "id"`,
      [c.name, url, c.status, c.start, c.end, c.created],
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
      // The link as ai-responder adds it after the answer.
      const line = `Quick survey: ${url}`;
      await client.query(
        `UPDATE "messages" m
         SET "content" = m."content" || E'\\n\\n' || $2,
             "segments" = ceil((length(m."content") + 2 + length($2)) / 153.0)::int
         FROM "survey_deliveries" d WHERE d.message_id = m.id AND d.campaign_id = $1`,
        [campaignId, line],
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
  const previous = await client.query<{ value: DemoSeededValue }>(
    `SELECT "value" FROM "settings" WHERE "key" = $1`,
    [DEMO_SEEDED_SETTING],
  );
  const firstIndex = previous.rows[0]?.value.nextUserIndex ?? 0;
  const capacity = seedPhoneCapacity();
  if (firstIndex + options.users > capacity) {
    throw new Error(
      `the demo seed has fictional numbers (555-0${SEED_PHONE_LINES.first} to 555-0${SEED_PHONE_LINES.last} in ` +
        `${areaCodeBlocks().length} area codes) for ${capacity.toLocaleString('en-US')} users; ` +
        `${firstIndex.toLocaleString('en-US')} are seeded already, so at most ` +
        `${(capacity - firstIndex).toLocaleString('en-US')} more (asked for ${options.users.toLocaleString('en-US')}; ` +
        `--reset starts over)`,
    );
  }

  await createReferenceTables(client, previous.rows[0]?.value.phraseUses ?? {});
  await seedAiModels(client);
  const { live, fallback } = await replyModels(client);
  const ctx: BatchContext = {
    now,
    live,
    fallback,
    mediaBaseUrl: (options.mediaBaseUrl ?? SANDBOX_MEDIA_BASE_URL).replace(/\/+$/, ''),
    optOutConfirmation: complianceConfirmation('opt_out', ''),
  };

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
  const clearStage = () => client.query('TRUNCATE seed_users, seed_convs, seed_exchanges');

  await begin();
  await stageTestUsers(client, now, options.days);
  add(await writeStagedUsers(client, ctx));
  await client.query('COMMIT');
  await clearStage();

  for (let from = firstIndex; from < firstIndex + options.users; from += batchSize) {
    const to = Math.min(from + batchSize, firstIndex + options.users);
    const batchStarted = Date.now();
    await begin();
    await stageRegularUsers(client, from, to, now, options.days);
    const part = await writeStagedUsers(client, ctx);
    await client.query('COMMIT');
    await clearStage();
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

  const uses = await client.query<{ key: string; used: number }>(`SELECT key, used FROM seed_phrase_uses`);
  const value: DemoSeededValue = {
    seededAt: new Date().toISOString(),
    nextUserIndex: firstIndex + options.users,
    users: (previous.rows[0]?.value.users ?? 0) + totals.users,
    messages: (previous.rows[0]?.value.messages ?? 0) + totals.messages,
    phraseUses: Object.fromEntries(uses.rows.map((r) => [r.key, Number(r.used)])),
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
