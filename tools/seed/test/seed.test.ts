import { Client } from 'pg';
import { API_USAGE_DISPLAY_LIMITS } from '@sprout/contracts';
import { DEFAULT_SPENDING_LIMIT, SPENDING_LIMIT_SETTING, replyIdSql } from '@sprout/domain';
import { complianceConfirmation } from '@sprout/sms';
import { createTestDatabase, type TestDatabase } from '@sprout/testing';
import { parseSeedArgs, runSeed } from '../main';
import { SEED_PHONE_LINES, SEED_TEST_USERS, SEED_ZIPS } from '../demo-data';
import { FICTIONAL_PHONE_PATTERN, fictionalPhoneAt } from '../phones';
import { SEED_WITH_REAL_TWILIO_FLAG, realTwilioRefusal, usesRealTwilio } from '../real-twilio';
import { SANDBOX_ACCOUNT_SID, isDemoSeeded, placeOf, seedDemoData, seedPhoneCapacity } from '../seed-demo';

const REAL_SID = `AC${'1f'.repeat(16)}`;

describe('parseSeedArgs', () => {
  it('reads the flags with defaults', () => {
    expect(parseSeedArgs([])).toEqual({
      users: 1000,
      days: 60,
      reset: false,
      once: false,
      batchSize: 10_000,
    });
    expect(parseSeedArgs(['--users', '250', '--days=30', '--reset', '--once', '--batch', '100'])).toEqual({
      users: 250,
      days: 30,
      reset: true,
      once: true,
      batchSize: 100,
    });
  });

  it('refuses bad input with the usage', () => {
    expect(() => parseSeedArgs(['--users', 'many'])).toThrow(/--users needs a whole number.*\n.*usage/);
    expect(() => parseSeedArgs(['--days', '0'])).toThrow(/--days/);
    expect(() => parseSeedArgs(['--nope'])).toThrow(/unknown argument --nope/);
  });
});

describe('real Twilio credentials', () => {
  it('counts only a real account without a fake Twilio in front as real', () => {
    expect(usesRealTwilio({})).toBe(false);
    expect(usesRealTwilio({ TWILIO_ACCOUNT_SID: REAL_SID })).toBe(false);
    expect(usesRealTwilio({ TWILIO_ACCOUNT_SID: SANDBOX_ACCOUNT_SID, TWILIO_AUTH_TOKEN: 't' })).toBe(false);
    expect(
      usesRealTwilio({
        TWILIO_ACCOUNT_SID: REAL_SID,
        TWILIO_AUTH_TOKEN: 't',
        TWILIO_API_BASE_URL: 'http://edge:3010',
      }),
    ).toBe(false);
    expect(usesRealTwilio({ TWILIO_ACCOUNT_SID: REAL_SID, TWILIO_AUTH_TOKEN: 't' })).toBe(true);
    expect(
      usesRealTwilio({ TWILIO_ACCOUNT_SID: REAL_SID, TWILIO_AUTH_TOKEN: 't', TWILIO_API_BASE_URL: '' }),
    ).toBe(true);
  });

  it('refuses with real credentials unless forced by the named flag', () => {
    const real = { TWILIO_ACCOUNT_SID: REAL_SID, TWILIO_AUTH_TOKEN: 't' };
    expect(realTwilioRefusal(real)).toContain(`${SEED_WITH_REAL_TWILIO_FLAG}=1`);
    expect(realTwilioRefusal({ ...real, [SEED_WITH_REAL_TWILIO_FLAG]: '1' })).toBeNull();
    expect(realTwilioRefusal({ ...real, [SEED_WITH_REAL_TWILIO_FLAG]: '0' })).not.toBeNull();
  });
});

describe('seed ZIPs and numbers', () => {
  it('resolves every ZIP with the product lookups and gives each area code one ZIP', () => {
    for (const { zip } of SEED_ZIPS) expect(() => placeOf(zip)).not.toThrow();
    const codes = SEED_ZIPS.flatMap((z) => z.areaCodes);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[2-9]\d\d$/);
  });

  it('has fictional numbers for many more users than npm start seeds', () => {
    const lines = SEED_PHONE_LINES.last - SEED_PHONE_LINES.first + 1;
    expect(seedPhoneCapacity()).toBe(SEED_ZIPS.flatMap((z) => z.areaCodes).length * lines);
    expect(seedPhoneCapacity()).toBeGreaterThanOrEqual(20_000);
  });
});

describe('fictionalPhoneAt', () => {
  it('numbers a block of area codes with fictional lines only, none twice', () => {
    const phones = Array.from({ length: 300 }, (_, i) => fictionalPhoneAt(i, 240, 3));
    expect(new Set(phones).size).toBe(300);
    for (const phone of phones) expect(phone).toMatch(FICTIONAL_PHONE_PATTERN);
    expect(phones[0]).toBe('+12405550100');
    expect(phones[99]).toBe('+12405550199');
    expect(phones[100]).toBe('+12415550100');
  });

  it('refuses a number past its block or past the last area code', () => {
    expect(() => fictionalPhoneAt(100, 240)).toThrow('outside its block of 100');
    expect(() => fictionalPhoneAt(-1, 240)).toThrow(RangeError);
    expect(() => fictionalPhoneAt(100, 999, 2)).toThrow('area code 1000 does not exist');
  });
});

describe('seedDemoData', () => {
  let db: TestDatabase;
  let client: Client;
  /** Tables with rows before seeding (migrations fill some). */
  let filledBefore: string[];
  const q = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    (await client.query<T>(sql, params)).rows;
  const n = async (sql: string, params: unknown[] = []): Promise<number> =>
    Number((await q<{ n: string }>(sql, params))[0]?.n);
  const filledTables = async (): Promise<string[]> => {
    const tables = await q<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
    );
    const filled: string[] = [];
    for (const { name } of tables) {
      if ((await n(`SELECT count(*) AS n FROM (SELECT 1 FROM "${name}" LIMIT 1) x`)) > 0) filled.push(name);
    }
    return filled;
  };
  /** Each text with the reply ai-responder would have written for it (by the reply id). */
  const pairs = `messages i JOIN messages o ON o.id = ${replyIdSql('i.id')}`;
  const duplicatePairs = `
    SELECT count(*) AS n FROM (
      SELECT i.content, o.content FROM ${pairs} WHERE i.direction = 'inbound' AND i.kind = 'reply'
      GROUP BY 1, 2 HAVING count(*) > 1) d`;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    expect(await isDemoSeeded(client)).toBe(false);
    filledBefore = await filledTables();
    await seedDemoData(client, { users: 300, days: 60, reset: false, batchSize: 120 });
  });

  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  it('owes nobody a reply: no awaiting_replies rows, so the inbound sweep sends the demo nothing', async () => {
    expect(await n(`SELECT count(*) AS n FROM messages WHERE direction = 'inbound'`)).toBeGreaterThan(0);
    expect(await n(`SELECT count(*) AS n FROM awaiting_replies`)).toBe(0);
  });

  it('marks the database as seeded and adds the users, plus the test users once', async () => {
    expect(await isDemoSeeded(client)).toBe(true);
    expect(await n(`SELECT count(*) AS n FROM users WHERE NOT is_test_user`)).toBe(300);
    expect(await n(`SELECT count(*) AS n FROM users WHERE is_test_user AND test_user_name IS NOT NULL`)).toBe(
      SEED_TEST_USERS.length,
    );
    expect(await n(`SELECT count(*) AS n FROM messages WHERE is_test_user`)).toBeGreaterThan(0);
    expect(
      await n(`SELECT count(*) AS n FROM messages WHERE is_test_user AND provider_sid IS NOT NULL`),
    ).toBe(0);
  });

  it('gives every user a number reserved for fiction, in an area code of their ZIP', async () => {
    const users = await q<{ phone_number: string; zip: string; is_test_user: boolean }>(
      `SELECT u.phone_number, coalesce(u.zip_code, '') AS zip, u.is_test_user FROM users u`,
    );
    const areaCodesOf = new Map(SEED_ZIPS.map((z) => [z.zip, z.areaCodes]));
    const lines = new Set<number>();
    for (const user of users) {
      expect(user.phone_number).toMatch(FICTIONAL_PHONE_PATTERN);
      const line = Number(user.phone_number.slice(-4));
      lines.add(line);
      if (user.is_test_user) expect(line).toBe(SEED_PHONE_LINES.testUsers);
      else expect(line >= SEED_PHONE_LINES.first && line <= SEED_PHONE_LINES.last).toBe(true);
      if (user.zip !== '') expect(areaCodesOf.get(user.zip)).toContain(user.phone_number.slice(2, 5));
    }
    // Lines 0100 to 0129 stay free for texting the sandbox by hand.
    expect([...lines].some((line) => line < SEED_PHONE_LINES.first)).toBe(false);
  });

  it('places users where the product lookups place their ZIP', async () => {
    const rows = await q<{ zip_code: string; city: string; state: string; region: string; zone: string }>(
      `SELECT DISTINCT zip_code, city, state, region, hardiness_zone AS zone FROM users WHERE zip_code IS NOT NULL`,
    );
    expect(rows.length).toBeGreaterThan(50);
    for (const row of rows) {
      const { zip_code, ...place } = row;
      expect({ zip: zip_code, ...place }).toEqual({ zip: zip_code, ...placeOf(zip_code) });
    }
  });

  it('writes nothing dated after the seed ran', async () => {
    const future = await q<{ what: string }>(`
      SELECT 'message' AS what FROM messages WHERE greatest(created_at, updated_at, sent_at, delivered_at) > now()
      UNION ALL SELECT 'conversation' FROM conversations
        WHERE greatest(started_at, last_message_at, ended_at, summarized_at) > now()
      UNION ALL SELECT 'user' FROM users WHERE greatest(created_at, updated_at, last_message_at, opted_out_at) > now()
      UNION ALL SELECT 'llm call' FROM llm_calls WHERE created_at > now()
      UNION ALL SELECT 'consent event' FROM consent_events WHERE created_at > now()
      UNION ALL SELECT 'campaign' FROM survey_campaigns WHERE created_at > now() OR created_at > start_date
      UNION ALL SELECT 'delivery' FROM survey_deliveries WHERE greatest(created_at, delivered_at) > now()
      UNION ALL SELECT 'signup' FROM beta_signups WHERE greatest(signup_date, approved_at) > now()`);
    expect(future).toEqual([]);
  });

  it('answers every text under the reply id the product derives, so none looks unanswered', async () => {
    expect(
      await n(`
        SELECT count(*) AS n FROM messages m
        WHERE m.direction = 'inbound' AND m.kind = 'reply'
          AND NOT EXISTS (SELECT 1 FROM messages r WHERE r.id = ${replyIdSql('m.id')})`),
    ).toBe(0);
  });

  it('times replies as the product does: seconds, from the text to its reply', async () => {
    // The reply's response time is the time from the text to the reply.
    expect(
      await n(`
        SELECT count(*) AS n FROM ${pairs}
        WHERE abs(extract(epoch FROM o.created_at - i.created_at) * 1000 - o.response_time_ms) > 1`),
    ).toBe(0);
    // A model answer without a photo: 1 to 8 s.
    const plain = await q<{ min: number; max: number; avg: number }>(`
      SELECT min(o.response_time_ms) AS min, max(o.response_time_ms) AS max, avg(o.response_time_ms)::float8 AS avg
      FROM ${pairs} JOIN llm_calls l ON l.message_id = o.id AND l.error IS NULL AND l.tier = 'primary'
      WHERE i.media = '[]'::jsonb`);
    expect(plain[0]!.min).toBeGreaterThanOrEqual(1000);
    expect(plain[0]!.max).toBeLessThanOrEqual(8000);
    expect(plain[0]!.avg).toBeGreaterThan(1500);
    expect(plain[0]!.avg).toBeLessThan(5000);
    // Whatever failed before (a timed-out model, a photo), never more than a minute; a template
    // answer after two quick failures can come in under a second.
    expect(
      await n(`SELECT count(*) AS n FROM messages WHERE direction = 'outbound' AND kind = 'reply'
                 AND (response_time_ms IS NULL OR response_time_ms NOT BETWEEN 300 AND 60000)`),
    ).toBe(0);
    // The opt-out confirmation is written with the STOP, not answered by a model.
    expect(
      await n(`SELECT count(*) AS n FROM messages WHERE kind = 'consent' AND response_time_ms IS NOT NULL`),
    ).toBe(0);
  });

  it('answers below the live model only after the models failed, or on a day over the limit', async () => {
    const unexplained = await n(
      `SELECT count(*) AS n FROM llm_calls c
       WHERE c.purpose = 'reply' AND c.error IS NULL AND c.tier <> 'primary'
         AND NOT EXISTS (
           SELECT 1 FROM llm_calls f
           WHERE f.conversation_id = c.conversation_id AND f.purpose = 'reply' AND f.error IS NOT NULL
             AND f.created_at BETWEEN c.created_at - interval '2 minutes' AND c.created_at)
         AND (SELECT coalesce(sum(d.cost), 0) FROM llm_calls d
               WHERE d.created_at >= date_trunc('day', c.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
                 AND d.created_at < c.created_at)
             < spend_limit_of((SELECT value FROM settings WHERE key = $1), $2)`,
      [SPENDING_LIMIT_SETTING, DEFAULT_SPENDING_LIMIT],
    );
    expect(unexplained).toBe(0);
    // Template answers carry no tokens or model call price.
    expect(
      await n(
        `SELECT count(*) AS n FROM llm_calls WHERE tier = 'template' AND (model IS NOT NULL OR total_tokens > 0)`,
      ),
    ).toBe(0);
  });

  it('sends nothing to a user after their opt-out, and confirms it in the product words', async () => {
    expect(
      await n(`
        SELECT count(*) AS n FROM messages m
        WHERE m.direction = 'outbound'
          AND (m.error_code = '21610' OR m.error_message ILIKE '%unsubscribed%')
          AND NOT EXISTS (SELECT 1 FROM consent_events ce
                          WHERE ce.user_id = m.user_id AND ce.type = 'opt_out' AND ce.created_at <= m.created_at)`),
    ).toBe(0);
    expect(
      await n(`
        SELECT count(*) AS n FROM messages m JOIN consent_events ce ON ce.user_id = m.user_id AND ce.type = 'opt_out'
        WHERE m.direction = 'outbound' AND m.created_at > ce.created_at AND m.id <> ce.reply_message_id`),
    ).toBe(0);
    const confirmations = await q<{ content: string }>(
      `SELECT DISTINCT m.content FROM consent_events ce JOIN messages m ON m.id = ce.reply_message_id`,
    );
    expect(confirmations.map((c) => c.content)).toEqual([complianceConfirmation('opt_out', '')]);
    expect(await n(`SELECT count(*) AS n FROM users WHERE opted_out`)).toBe(
      await n(`SELECT count(DISTINCT user_id) AS n FROM consent_events WHERE type = 'opt_out'`),
    );
  });

  it('never repeats a question and its answer', async () => {
    expect(await n(duplicatePairs)).toBe(0);
    expect(
      await n(`SELECT count(*) AS n FROM (
                 SELECT content FROM messages WHERE direction = 'inbound' AND kind = 'reply'
                 GROUP BY 1 HAVING count(*) > 1) d`),
    ).toBe(0);
  });

  it('records photos as image-processor does, with media on the sandbox', async () => {
    const media = await q<{ url: string; analyzed: boolean }>(
      `SELECT media->0->>'url' AS url, media->0 ? 'analyzedAt' AS analyzed FROM messages WHERE media <> '[]'::jsonb`,
    );
    expect(media.length).toBeGreaterThan(0);
    for (const item of media) {
      expect(item.url.startsWith(`http://127.0.0.1:3010/2010-04-01/Accounts/${SANDBOX_ACCOUNT_SID}/`)).toBe(
        true,
      );
      expect(new URL(item.url).hostname).not.toMatch(/twilio\.com$/);
      expect(item.analyzed).toBe(true);
    }
    // An analysed photo's text carries its call's tokens, cost and model, priced from the live model.
    const mismatched = await n(`
      SELECT count(*) AS n FROM messages m
      LEFT JOIN llm_calls l ON l.message_id = m.id AND l.purpose = 'image' AND l.error IS NULL
      LEFT JOIN ai_models a ON a.name = l.model
      WHERE m.media <> '[]'::jsonb AND m.image_processed
        AND (l.id IS NULL OR m.model_used IS DISTINCT FROM l.model OR m.token_usage <> l.total_tokens
             OR m.cost <> l.cost OR m.cost = 0 OR m.image_analysis IS NULL OR m.image_processing_error IS NOT NULL
             OR l.cost <> round((l.prompt_tokens * a.input_price_per_million
                                 + l.completion_tokens * a.output_price_per_million) / 1000000.0, 6))`);
    expect(mismatched).toBe(0);
    // A failed one carries the error, no analysis and nothing paid.
    expect(
      await n(`
        SELECT count(*) AS n FROM messages m
        WHERE m.media <> '[]'::jsonb AND m.image_processed IS NOT TRUE
          AND (m.image_processed IS NULL OR m.image_processing_error IS NULL OR m.image_analysis IS NOT NULL
               OR m.cost <> 0 OR m.model_used IS NOT NULL
               OR EXISTS (SELECT 1 FROM llm_calls l WHERE l.message_id = m.id AND l.cost <> 0))`),
    ).toBe(0);
  });

  it('leaves the last hour calm: no failures, nothing slow, spend far from the limit', async () => {
    expect(
      await n(`SELECT count(*) AS n FROM messages WHERE created_at >= now() - interval '1 hour'
                 AND status IN ('failed', 'undelivered')`),
    ).toBe(0);
    expect(
      await n(
        `SELECT count(*) AS n FROM llm_calls WHERE created_at >= now() - interval '1 hour' AND error IS NOT NULL`,
      ),
    ).toBe(0);
    expect(
      await n(`SELECT coalesce(max(response_time_ms), 0) AS n FROM messages
               WHERE direction = 'outbound' AND created_at >= now() - interval '1 hour'`),
    ).toBeLessThan(15_000);
    expect(
      await n(`SELECT coalesce(sum(cost), 0) * 100 AS n FROM llm_calls
               WHERE created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`),
    ).toBeLessThan(DEFAULT_SPENDING_LIMIT * 80);
    // A reply Twilio has not confirmed is one sms-gateway would ask about: only older than 3 days.
    expect(
      await n(`SELECT count(*) AS n FROM messages WHERE direction = 'outbound' AND status = 'sent'
                 AND provider_sid IS NOT NULL AND created_at > now() - interval '3 days'`),
    ).toBe(0);
  });

  it('keeps the daily model calls of 2,000 users (npm start) well under the dashboard limit of 1,000', async () => {
    const users = await n(`SELECT count(*) AS n FROM users WHERE NOT is_test_user`);
    const perDay = await n(`
      SELECT count(*) / 7.0 AS n FROM llm_calls
      WHERE model IS NOT NULL AND model <> 'offline-advisor'
        AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '7 days'
        AND created_at < date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`);
    // Below 60 % (the dashboard's first alert level) at 2,000 users: 0.3 calls a user a day.
    expect(perDay / users).toBeLessThan((0.6 * API_USAGE_DISPLAY_LIMITS.calls) / 2000);
    // A user exists from their first text.
    expect(
      await n(`SELECT count(*) AS n FROM users u
               WHERE u.created_at <> (SELECT min(m.created_at) FROM messages m WHERE m.user_id = u.id)`),
    ).toBe(0);
  });

  it('writes only the demo tables (no outbox or other table of the pipeline)', async () => {
    const added = (await filledTables()).filter((t) => !filledBefore.includes(t));
    const demo = [
      'ai_models',
      'beta_signups',
      'consent_events',
      'conversations',
      'llm_calls',
      'llm_spend_buckets',
      'messages',
      'rollup_totals',
      // The conversations' search vocabulary, kept by their trigger.
      'search_words',
      'settings',
      'survey_campaigns',
      'survey_deliveries',
      'users',
    ];
    expect(added.filter((t) => !demo.includes(t) && !t.startsWith('rollup_'))).toEqual([]);
  });

  it('keeps every user counter equal to what the messages say', async () => {
    const mismatched = await n(`
      SELECT count(*) AS n FROM users u
      LEFT JOIN (SELECT user_id, count(*) c, sum(token_usage) t, sum(cost) co, max(created_at) l
                 FROM messages GROUP BY user_id) m ON m.user_id = u.id
      WHERE u.total_messages <> coalesce(m.c, 0) OR u.total_tokens <> coalesce(m.t, 0)
         OR u.total_cost <> coalesce(m.co, 0) OR u.last_message_at IS DISTINCT FROM m.l`);
    expect(mismatched).toBe(0);
    expect(await n(`SELECT count(*) AS n FROM users WHERE total_messages = 0`)).toBe(0);
  });

  it('keeps conversations consistent with their messages and split by the 6-hour idle rule', async () => {
    const mismatched = await n(`
      SELECT count(*) AS n FROM conversations c
      JOIN (SELECT conversation_id, count(*) k, min(created_at) f, max(created_at) l FROM messages GROUP BY conversation_id) m
        ON m.conversation_id = c.id
      WHERE c.message_count <> m.k OR c.started_at <> m.f OR c.last_message_at <> m.l`);
    expect(mismatched).toBe(0);
    const tooClose = await n(`
      SELECT count(*) AS n FROM (
        SELECT started_at - lag(last_message_at) OVER (PARTITION BY user_id ORDER BY started_at) AS gap FROM conversations
      ) x WHERE gap < interval '6 hours'`);
    expect(tooClose).toBe(0);
    const longGapInside = await n(`
      SELECT count(*) AS n FROM (
        SELECT created_at - lag(created_at) OVER (PARTITION BY conversation_id ORDER BY created_at) AS gap FROM messages
      ) x WHERE gap >= interval '6 hours'`);
    expect(longGapInside).toBe(0);
    // Ended conversations carry a summary; ongoing ones are recent.
    expect(
      await n(`SELECT count(*) AS n FROM conversations WHERE ended_at IS NOT NULL AND summary IS NULL`),
    ).toBe(0);
    expect(
      await n(
        `SELECT count(*) AS n FROM conversations WHERE ended_at IS NULL AND last_message_at < now() - interval '7 hours'`,
      ),
    ).toBe(0);
  });

  it('writes mostly delivered answers, with Twilio error codes on the failed ones', async () => {
    const statuses = await q<{ status: string; n: string }>(
      `SELECT status, count(*) AS n FROM messages WHERE direction = 'outbound' AND NOT is_test_user GROUP BY status`,
    );
    const byStatus = Object.fromEntries(statuses.map((r) => [r.status, Number(r.n)]));
    const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
    expect((byStatus.delivered ?? 0) / total).toBeGreaterThan(0.9);
    expect(
      await n(
        `SELECT count(*) AS n FROM messages WHERE status IN ('failed', 'undelivered') AND (error_code IS NULL OR error_message IS NULL)`,
      ),
    ).toBe(0);
    expect(
      await n(`SELECT count(*) AS n FROM messages WHERE direction = 'inbound' AND status <> 'received'`),
    ).toBe(0);
    expect(
      await n(`SELECT count(*) AS n FROM messages WHERE content LIKE '%{zone}%' OR content LIKE '%{city}%'`),
    ).toBe(0);
  });

  it('records a model call for every generated answer, priced from the model', async () => {
    const unpriced = await n(`
      SELECT count(*) AS n FROM messages m JOIN llm_calls l ON l.message_id = m.id AND l.purpose = 'reply'
      WHERE m.cost <> l.cost OR m.token_usage <> l.total_tokens`);
    expect(unpriced).toBe(0);
    const answersWithoutCall = await n(`
      SELECT count(*) AS n FROM messages m
      WHERE m.direction = 'outbound' AND m.kind = 'reply'
        AND NOT EXISTS (SELECT 1 FROM llm_calls l WHERE l.message_id = m.id)`);
    expect(answersWithoutCall).toBe(0);
    const mispriced = await n(`
      SELECT count(*) AS n FROM llm_calls l JOIN ai_models a ON a.name = l.model
      WHERE l.error IS NULL
        AND l.cost <> round((l.prompt_tokens * a.input_price_per_million + l.completion_tokens * a.output_price_per_million) / 1000000.0, 6)`);
    expect(mispriced).toBe(0);
  });

  it('adds AI models, signups and one survey campaign per status with consistent counts', async () => {
    const models = await q<{ name: string; is_live: boolean; is_fallback: boolean }>(
      `SELECT name, is_live, is_fallback FROM ai_models WHERE is_live OR is_fallback ORDER BY name`,
    );
    expect(models).toEqual([
      { name: 'gpt-4o', is_live: false, is_fallback: true },
      { name: 'gpt-4o-mini', is_live: true, is_fallback: false },
    ]);
    expect(await n(`SELECT count(*) AS n FROM beta_signups`)).toBeGreaterThanOrEqual(25);
    expect(
      await n(`SELECT count(*) AS n FROM beta_signups WHERE status = 'approved' AND approved_at IS NULL`),
    ).toBe(0);
    const campaigns = await q<{ status: string }>(`SELECT status FROM survey_campaigns ORDER BY status`);
    expect(campaigns.map((c) => c.status)).toEqual(['completed', 'live', 'paused', 'scheduled']);
    const wrongCounts = await n(`
      SELECT count(*) AS n FROM survey_campaigns c
      WHERE c.status <> 'scheduled' AND (
        c.delivered_count <> (SELECT count(*) FROM survey_deliveries d WHERE d.campaign_id = c.id AND d.conversation_id IS NOT NULL)
        OR c.total_target_users <> (SELECT count(*) FROM survey_deliveries d WHERE d.campaign_id = c.id))`);
    expect(wrongCounts).toBe(0);
  });

  it('keeps the rollup counters exact when the schema has them', async () => {
    const present = (await q<{ p: boolean }>(`SELECT to_regclass('rollup_totals') IS NOT NULL AS p`))[0]?.p;
    if (!present) return;
    const inbound = await n(
      `SELECT coalesce(sum(count), 0) AS n FROM rollup_totals WHERE metric = 'messages_inbound'`,
    );
    expect(inbound).toBe(await n(`SELECT count(*) AS n FROM messages WHERE direction = 'inbound'`));
    const users = await n(`SELECT coalesce(sum(count), 0) AS n FROM rollup_totals WHERE metric = 'users'`);
    expect(users).toBe(await n(`SELECT count(*) AS n FROM users`));
  });

  it('adds more users on a second run, still unrepeated, and starts over with reset', async () => {
    await expect(
      seedDemoData(client, { users: seedPhoneCapacity(), days: 10, reset: false }),
    ).rejects.toThrow(/fictional numbers .* for [\d,]+ users; 300 are seeded already/);
    await seedDemoData(client, { users: 50, days: 10, reset: false });
    expect(await n(`SELECT count(*) AS n FROM users WHERE NOT is_test_user`)).toBe(350);
    expect(await n(`SELECT count(*) AS n FROM users WHERE is_test_user`)).toBe(SEED_TEST_USERS.length);
    expect(await n(duplicatePairs)).toBe(0);
    await seedDemoData(client, { users: 20, days: 60, reset: true });
    expect(await n(`SELECT count(*) AS n FROM users WHERE NOT is_test_user`)).toBe(20);
    expect(await n(`SELECT count(*) AS n FROM survey_campaigns`)).toBe(4);
  });
});

describe('runSeed', () => {
  let db: TestDatabase;
  let client: Client;
  const real = { TWILIO_ACCOUNT_SID: REAL_SID, TWILIO_AUTH_TOKEN: 'a-real-token' };

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
  });

  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  const users = async () =>
    Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM users`)).rows[0]?.n);

  it('skips with real Twilio credentials, naming the flag, and seeds when forced by it', async () => {
    const out: string[] = [];
    const write = (text: string) => out.push(text);
    const args = ['--once', '--users', '5', '--days', '5'];
    expect(await runSeed(args, { ...real, DATABASE_URL: db.url }, write)).toBe('refused');
    expect(out.join('')).toContain(`${SEED_WITH_REAL_TWILIO_FLAG}=1`);
    expect(await users()).toBe(0);

    const forced = { ...real, DATABASE_URL: db.url, [SEED_WITH_REAL_TWILIO_FLAG]: '1' };
    expect(await runSeed(args, forced, write)).toBe('seeded');
    expect(await users()).toBe(5 + SEED_TEST_USERS.length);
    expect(await runSeed(args, { ...real, DATABASE_URL: db.url }, write)).toBe('already-seeded');
  });

  it('points seeded media at the sandbox it is given', async () => {
    const env = { DATABASE_URL: db.url, TWILIO_API_BASE_URL: 'http://127.0.0.1:3999/' };
    expect(await runSeed(['--users', '400', '--days', '5', '--reset'], env, () => undefined)).toBe('seeded');
    const urls = await client.query<{ url: string }>(
      `SELECT media->0->>'url' AS url FROM messages WHERE media <> '[]'::jsonb`,
    );
    expect(urls.rows.length).toBeGreaterThan(0);
    for (const { url } of urls.rows) expect(url.startsWith('http://127.0.0.1:3999/2010-04-01/')).toBe(true);
  });
});
