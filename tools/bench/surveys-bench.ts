// `npm run bench:surveys`: survey campaigns at scale. Seeds (or reuses) a database of
// its own with 1M users, boots api-gateway and survey-scheduler in-process on one Redis prefix,
// signs in, and measures what the console and the reply path do with them:
// - POST /api/admin/survey-campaigns: one campaign for every user, then more (latency);
// - the survey-scheduler's targeting walk started by that POST: time until every targeted user
//   has a pending delivery, and whether totalTargetUsers is exact;
// - GET /api/admin/survey-campaigns polled by concurrent clients while the walk runs and after;
// - GET .../{id}/deliveries on the 1M-delivery campaign;
// - the reply path: claiming and marking a due delivery (libs/domain claimDueSurvey and markSurveyDelivered, under the
//   user's row lock as the pipeline does) for many users at once, and deliveredCount after it;
// - pause, and that no reply claims a link while paused.
// Prints a table and writes bench-results/surveys.json.
//
// Options: --users=<1000000> --db=<sprout_bench_surveys> --reseed --concurrency=<8>
// --requests=<400 per measured endpoint> --creates=<30>
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { Client, Pool } from 'pg';
import { claimDueSurvey, markSurveyDelivered } from '@sprout/domain';
import { EntityManager } from 'typeorm';
import { databaseUrl as urlOf, seedUsersOnly } from '../seed/bulk';
import { startApiGateway } from './api-gateway';
import { createApp as createSurveyScheduler } from '../../services/survey-scheduler/src/app';

const ROOT = path.resolve(__dirname, '../..');

interface Options {
  users: number;
  database: string;
  reseed: boolean;
  concurrency: number;
  requests: number;
  creates: number;
}

const parseOptions = (argv: string[]): Options => {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match?.[1]) throw new Error(`Unknown argument ${arg}`);
    flags.set(match[1], match[2] ?? 'true');
  }
  const number = (name: string, fallback: number): number => {
    const raw = flags.get(name);
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number`);
    return value;
  };
  const users = number('users', 1_000_000);
  return {
    users,
    database:
      flags.get('db') ?? (users === 1_000_000 ? 'sprout_bench_surveys' : `sprout_bench_surveys_${users}`),
    reseed: flags.has('reseed'),
    concurrency: number('concurrency', 8),
    requests: number('requests', 400),
    creates: number('creates', 30),
  };
};

const log = (message: string): void => {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};

const seconds = (startedMs: number): number => Math.round((performance.now() - startedMs) / 100) / 10;
const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------------------------------------
// Load: HTTP clients in a worker thread (tools/bench/load-worker.mjs), as the admin benchmark

interface RunResult {
  latencies: number[];
  errors: string[];
  wallMs: number;
}

class LoadWorker {
  private readonly worker: Worker;
  private seq = 0;
  private readonly pending = new Map<number, (message: Record<string, unknown>) => void>();

  constructor(data: { baseUrl: string; cookie: string; databaseUrl: string; concurrency: number }) {
    this.worker = new Worker(path.join(__dirname, 'load-worker.mjs'), { workerData: data });
    this.worker.on('message', (message: Record<string, unknown>) => {
      const id = message.id as number;
      this.pending.get(id)?.(message);
      this.pending.delete(id);
    });
  }

  private send(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = ++this.seq;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ ...message, id });
    });
  }

  async http(concurrency: number, urls: string[]): Promise<RunResult> {
    const reply = await this.send({
      type: 'run',
      kind: 'http',
      concurrency,
      jobs: urls.map((url) => ({ url })),
    });
    if (typeof reply.fatal === 'string') throw new Error(reply.fatal);
    const result = reply as unknown as RunResult;
    const failed = result.errors.find((e) => e !== '');
    if (failed !== undefined) throw new Error(failed);
    return result;
  }

  async close(): Promise<void> {
    await this.send({ type: 'close' });
    await this.worker.terminate();
  }
}

interface Summary {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

const summarize = (latencies: number[]): Summary => {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
  return {
    n: sorted.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    max: round(sorted[sorted.length - 1] ?? NaN),
  };
};

// ---------------------------------------------------------------------------------------------
// The reply path's transaction, as the pipeline runs it (its manager is only asked to query)

type ReplyManager = EntityManager;

const inTransaction = async (pool: Pool, run: (manager: ReplyManager) => Promise<void>): Promise<void> => {
  const client = await pool.connect();
  // An EntityManager to libs/domain (which runs `query` on it), over this pool's client.
  const manager = Object.assign(Object.create(EntityManager.prototype) as ReplyManager, {
    query: async (sql: string, values?: unknown[]): Promise<unknown[]> =>
      (await client.query(sql, values)).rows as unknown[],
  });
  try {
    await client.query('BEGIN');
    await run(manager);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
};

// ---------------------------------------------------------------------------------------------

export const main = async (argv: string[]): Promise<void> => {
  const options = parseOptions(argv);
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  await seedUsersOnly({
    adminUrl,
    database: options.database,
    users: options.users,
    reseed: options.reseed,
    log,
  });
  const databaseUrl = urlOf(adminUrl, options.database);

  const db = new Client({ connectionString: databaseUrl, application_name: 'sprout-bench-surveys' });
  await db.connect();
  await db.query(`TRUNCATE "survey_campaigns" CASCADE`);
  await db.query(`VACUUM (ANALYZE) "survey_deliveries"`);
  const one = async <T>(sql: string, values: unknown[] = []): Promise<T> => {
    const row = (await db.query(sql, values)).rows[0] as T | undefined;
    if (row === undefined) throw new Error(`no row: ${sql}`);
    return row;
  };
  const { eligible } = await one<{ eligible: number }>(
    `SELECT count(*)::int AS eligible FROM "users" WHERE NOT "is_test_user" AND NOT "opted_out"`,
  );

  const prefix = `bench-surveys-${randomBytes(4).toString('hex')}`;
  const gateway = await startApiGateway({ databaseUrl, redisUrl, bullmqPrefix: prefix });
  const { baseUrl, cookie } = gateway;
  const scheduler = await createSurveyScheduler({
    databaseUrl,
    redisUrl,
    bullmqPrefix: prefix,
    logLevel: 'warn',
    host: '127.0.0.1',
    port: 0,
  });
  const replyDb = new Pool({
    connectionString: databaseUrl,
    max: options.concurrency,
    application_name: 'sprout-bench-replies',
  });
  let worker: LoadWorker | undefined;
  try {
    const call = async (method: string, url: string, body?: unknown) => {
      const started = performance.now();
      const res = await fetch(`${baseUrl}${url}`, {
        method,
        headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      const ms = performance.now() - started;
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
      return { ms, json: JSON.parse(text) as Record<string, unknown> };
    };
    worker = new LoadWorker({ baseUrl, cookie, databaseUrl, concurrency: options.concurrency });
    const listUrls = (n: number) => Array.from({ length: n }, () => '/api/admin/survey-campaigns');
    await worker.http(options.concurrency, listUrls(40));
    // The fixed cost of any admin request (routing, session, no database), for context.
    const floorUrls = Array.from({ length: options.requests }, () => '/api/admin/auth-status');
    await worker.http(options.concurrency, floorUrls.slice(0, 40));
    const floor = summarize((await worker.http(options.concurrency, floorUrls)).latencies);
    log(`floor (GET /api/admin/auth-status, no database): p50 ${floor.p50} ms p95 ${floor.p95} ms`);
    log(
      `api-gateway on ${baseUrl} and survey-scheduler running; ${eligible.toLocaleString('en-US')} users to target`,
    );

    // 1. The campaign for everyone: its POST, then the walk it starts.
    const walkStarted = performance.now();
    const created = await call('POST', '/api/admin/survey-campaigns', {
      name: 'Everyone',
      surveyUrl: 'https://forms.example.com/bench',
    });
    const campaignId = (created.json.campaign as { id: string }).id;
    log(`POST (every user): ${round(created.ms)} ms; the walk runs`);

    // 2. The list, polled while the walk runs.
    const during: number[] = [];
    let walkSeconds = NaN;
    for (;;) {
      // Every second, a burst of 5 polls per client: far more than admins polling every 30 s.
      during.push(...(await worker.http(options.concurrency, listUrls(options.concurrency * 5))).latencies);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const { total } = await one<{ total: number }>(
        `SELECT "total_target_users" AS total FROM "survey_campaigns" WHERE "id" = $1`,
        [campaignId],
      );
      if (total >= eligible) {
        walkSeconds = seconds(walkStarted);
        break;
      }
      if (seconds(walkStarted) > 3600) throw new Error(`the walk did not finish within an hour (${total})`);
    }
    const exact = await one<{ total: number; rows: number; targeted: number }>(
      `SELECT c."total_target_users" AS total,
              (SELECT count(*)::int FROM "survey_deliveries" d WHERE d."campaign_id" = c."id") AS rows,
              (SELECT count(*)::int FROM "users" u WHERE NOT u."is_test_user" AND NOT u."opted_out") AS targeted
         FROM "survey_campaigns" c WHERE c."id" = $1`,
      [campaignId],
    );
    log(
      `walk: ${exact.rows.toLocaleString('en-US')} deliveries in ${walkSeconds} s ` +
        `(${Math.round(exact.rows / walkSeconds).toLocaleString('en-US')}/s); totalTargetUsers ${exact.total}, ` +
        `eligible ${exact.targeted}: ${exact.total === exact.rows && exact.rows === exact.targeted ? 'exact' : 'NOT EXACT'}`,
    );
    await db.query(`VACUUM (ANALYZE) "survey_deliveries"`);

    // 3. More campaigns (new users only: nothing to walk), for the POST's latency distribution.
    const creates = [created.ms];
    for (let i = 0; i < options.creates; i += 1) {
      creates.push(
        (
          await call('POST', '/api/admin/survey-campaigns', {
            name: `Newcomers ${i + 1}`,
            surveyUrl: 'https://forms.example.com/newcomers',
            targetExistingUsers: false,
          })
        ).ms,
      );
    }

    // 4. The list after the walk, with every campaign.
    await worker.http(options.concurrency, listUrls(40));
    const after = (await worker.http(options.concurrency, listUrls(options.requests))).latencies;

    // 5. The reply path: claim and mark, under the user's row lock, many users at once.
    const sample = (
      await db.query<{ user_id: string }>(
        `SELECT "user_id" FROM "survey_deliveries" WHERE "campaign_id" = $1 ORDER BY md5("id"::text) LIMIT $2`,
        [campaignId, options.requests],
      )
    ).rows.map((r) => r.user_id);
    const conversation = await one<{ id: string }>(
      `INSERT INTO "conversations" ("user_id") VALUES ($1) RETURNING "id"`,
      [sample[0]],
    );
    const message = await one<{ id: string }>(
      `INSERT INTO "messages" ("user_id", "conversation_id", "direction", "content", "status")
       VALUES ($1, $2, 'outbound', 'bench', 'queued') RETURNING "id"`,
      [sample[0], conversation.id],
    );
    const claimLatencies: number[] = [];
    let claimed = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        for (;;) {
          const userId = sample[next++];
          if (userId === undefined) return;
          const started = performance.now();
          await inTransaction(replyDb, async (manager) => {
            await manager.query(`SELECT 1 FROM "users" WHERE "id" = $1 FOR UPDATE`, [userId]);
            const due = await claimDueSurvey(manager, userId, conversation.id);
            if (due === null) return;
            await markSurveyDelivered(manager, due.deliveryId, {
              conversationId: conversation.id,
              messageId: message.id,
            });
            claimed += 1;
          });
          claimLatencies.push(performance.now() - started);
        }
      }),
    );
    const listed = (await call('GET', '/api/admin/survey-campaigns')).json as unknown as Array<{
      id: string;
      deliveredCount: number;
      totalTargetUsers: number;
    }>;
    const everyone = listed.find((c) => c.id === campaignId);
    const { delivered } = await one<{ delivered: number }>(
      `SELECT count(*)::int AS delivered FROM "survey_deliveries" WHERE "campaign_id" = $1 AND "delivered_at" IS NOT NULL`,
      [campaignId],
    );
    log(
      `replies: ${claimed} links claimed and marked; deliveredCount ${everyone?.deliveredCount}, delivered rows ${delivered}: ` +
        `${everyone?.deliveredCount === delivered && delivered === claimed ? 'exact' : 'NOT EXACT'}`,
    );

    // 6. The details dialog of the 1M-delivery campaign.
    const deliveriesUrl = `/api/admin/survey-campaigns/${campaignId}/deliveries`;
    await worker.http(
      options.concurrency,
      Array.from({ length: 40 }, () => deliveriesUrl),
    );
    const details = (
      await worker.http(
        options.concurrency,
        Array.from({ length: options.requests }, () => deliveriesUrl),
      )
    ).latencies;

    // 7. Pause, and no reply claims the link while paused.
    const pause = await call('POST', `/api/admin/survey-campaigns/${campaignId}/pause`);
    const pausedUsers = (
      await db.query<{ user_id: string }>(
        `SELECT "user_id" FROM "survey_deliveries" WHERE "campaign_id" = $1 AND "delivered_at" IS NULL LIMIT 100`,
        [campaignId],
      )
    ).rows;
    let claimedWhilePaused = 0;
    for (const { user_id: userId } of pausedUsers) {
      await inTransaction(replyDb, async (manager) => {
        if ((await claimDueSurvey(manager, userId, conversation.id)) !== null) claimedWhilePaused += 1;
      });
    }
    log(
      `pause: ${round(pause.ms)} ms; links claimed while paused: ${claimedWhilePaused} of ${pausedUsers.length}`,
    );

    const results = {
      'floor: GET /api/admin/auth-status (no database)': floor,
      'POST /api/admin/survey-campaigns': summarize(creates),
      'GET /api/admin/survey-campaigns (during the walk, 40 polls a second)': summarize(during),
      [`GET /api/admin/survey-campaigns (after, ${options.creates + 1} campaigns)`]: summarize(after),
      [`GET .../{id}/deliveries (${exact.rows.toLocaleString('en-US')} deliveries)`]: summarize(details),
      'reply: claim + mark a link': summarize(claimLatencies),
    };
    const report = {
      generatedAt: new Date().toISOString(),
      database: options.database,
      users: options.users,
      targeted: exact.rows,
      concurrency: options.concurrency,
      cores: os.cpus().length,
      loadAverage: os.loadavg().map((l) => round(l, 2)),
      walk: { seconds: walkSeconds, deliveriesPerSecond: Math.round(exact.rows / walkSeconds) },
      exact: {
        totalTargetUsers: exact.total === exact.rows && exact.rows === exact.targeted,
        deliveredCount: everyone?.deliveredCount === delivered && delivered === claimed,
      },
      pause: { ms: round(pause.ms), claimedWhilePaused },
      latenciesMs: results,
    };
    const header = `| measured | n | p50 | p95 | max |\n|---|---|---|---|---|`;
    const rows = Object.entries(results).map(
      ([name, s]) => `| ${name} | ${s.n} | ${s.p50} ms | ${s.p95} ms | ${s.max} ms |`,
    );
    process.stdout.write(`\n${header}\n${rows.join('\n')}\n\n`);
    const out = path.join(ROOT, 'bench-results');
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, 'surveys.json'), `${JSON.stringify(report, null, 2)}\n`);
    log(`written bench-results/surveys.json (load average ${report.loadAverage.join(' ')})`);
  } finally {
    await worker?.close();
    await replyDb.end();
    await scheduler.close();
    await gateway.close();
    await db.end();
  }
};
