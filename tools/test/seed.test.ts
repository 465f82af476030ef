import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@sprout/testing';
import { parseSeedArgs } from '../src/seed';
import { SEED_TEST_USERS } from '../src/seed/demo-data';
import { isDemoSeeded, seedDemoData } from '../src/seed/seed-demo';

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

describe('seedDemoData', () => {
  let db: TestDatabase;
  let client: Client;
  const q = async <T extends Record<string, unknown>>(sql: string): Promise<T[]> =>
    (await client.query<T>(sql)).rows;
  const n = async (sql: string): Promise<number> => Number((await q<{ n: string }>(sql))[0]?.n);

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    expect(await isDemoSeeded(client)).toBe(false);
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
      `SELECT status, count(*) AS n FROM messages WHERE direction = 'outbound' GROUP BY status`,
    );
    const byStatus = Object.fromEntries(statuses.map((r) => [r.status, Number(r.n)]));
    const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
    expect((byStatus.delivered ?? 0) / total).toBeGreaterThan(0.85);
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
    const miniPrice = await n(`
      SELECT count(*) AS n FROM llm_calls
      WHERE model = 'gpt-4o-mini' AND error IS NULL AND purpose = 'reply'
        AND cost <> round((prompt_tokens * 0.15 + completion_tokens * 0.6) / 1000000.0, 6)`);
    expect(miniPrice).toBe(0);
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

  it('adds more users on a second run and starts over with reset', async () => {
    await seedDemoData(client, { users: 50, days: 10, reset: false });
    expect(await n(`SELECT count(*) AS n FROM users WHERE NOT is_test_user`)).toBe(350);
    expect(await n(`SELECT count(*) AS n FROM users WHERE is_test_user`)).toBe(SEED_TEST_USERS.length);
    await seedDemoData(client, { users: 20, days: 60, reset: true });
    expect(await n(`SELECT count(*) AS n FROM users WHERE NOT is_test_user`)).toBe(20);
    expect(await n(`SELECT count(*) AS n FROM survey_campaigns`)).toBe(4);
  });
});
