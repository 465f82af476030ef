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
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client, Pool } from 'pg';
import { api, endpointUrl } from '@sprout/contracts';
import { claimDueSurvey, markSurveyDelivered } from '@sprout/domain';
import { EntityManager } from 'typeorm';
import { databaseUrl as urlOf, seedUsersOnly } from '../seed/bulk';
import { type BenchGateway, startApiGateway } from './api-gateway';
import {
  type Summary,
  benchServers,
  log,
  readFlags,
  removeRunKeys,
  round,
  routeOf,
  sleep,
  summarize,
  writeResult,
} from './harness';
import { LoadWorker, repeat } from './load-client';
import { createApp as createSurveyScheduler } from '../../services/survey-scheduler/src/app';

const parseOptions = (argv: string[]) => {
  const flags = readFlags(argv);
  const users = flags.whole('users', 1_000_000);
  return {
    users,
    database:
      flags.text('db') ?? (users === 1_000_000 ? 'sprout_bench_surveys' : `sprout_bench_surveys_${users}`),
    reseed: flags.has('reseed'),
    concurrency: flags.whole('concurrency', 8),
    requests: flags.whole('requests', 400),
    creates: flags.whole('creates', 30),
  };
};

type Options = ReturnType<typeof parseOptions>;

const seconds = (startedMs: number): number => Math.round((performance.now() - startedMs) / 100) / 10;
/** Latencies as the table gives them: 0.1 ms. */
const summary = (latencies: number[]): Summary => summarize(latencies, 1);
const count = (n: number): string => n.toLocaleString('en-US');

const LIST_URL = endpointUrl(api.surveys.list, {});

/** The first row of a query (it must have one). */
const one = async <T>(db: Client, sql: string, values: unknown[] = []): Promise<T> => {
  const row = (await db.query(sql, values)).rows[0] as T | undefined;
  if (row === undefined) throw new Error(`no row: ${sql}`);
  return row;
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
// Phases

/** What every phase works with. */
interface Bench {
  options: Options;
  db: Client;
  gateway: BenchGateway;
  worker: LoadWorker;
  replyDb: Pool;
  /** Real users who have not opted out: everyone the first campaign targets. */
  eligible: number;
}

/** The users (seeded or reused), no campaigns left from an earlier run, and how many may be targeted. */
const prepareDatabase = async (
  options: Options,
  adminUrl: string,
): Promise<{ databaseUrl: string; db: Client; eligible: number }> => {
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
  const { eligible } = await one<{ eligible: number }>(
    db,
    `SELECT count(*)::int AS eligible FROM "users" WHERE NOT "is_test_user" AND NOT "opted_out"`,
  );
  return { databaseUrl, db, eligible };
};

/** The list warmed up, then the fixed cost of any admin request (routing, session, no database), for context. */
const measureFloor = async ({ options, worker, gateway, eligible }: Bench): Promise<Summary> => {
  await worker.httpOk(options.concurrency, repeat(40, LIST_URL));
  const floorUrls = repeat(options.requests, api.auth.status.path);
  await worker.httpOk(options.concurrency, floorUrls.slice(0, 40));
  const floor = summary((await worker.httpOk(options.concurrency, floorUrls)).latencies);
  log(`floor (GET ${api.auth.status.path}, no database): p50 ${floor.p50} ms p95 ${floor.p95} ms`);
  log(`api-gateway on ${gateway.baseUrl} and survey-scheduler running; ${count(eligible)} users to target`);
  return floor;
};

interface Walk {
  campaignId: string;
  /** The POST that created the campaign for everyone. */
  createdMs: number;
  /** The list's latencies while the walk ran. */
  during: number[];
  seconds: number;
  /** totalTargetUsers, the deliveries written and the users eligible: all three equal when exact. */
  total: number;
  rows: number;
  targeted: number;
}

/** The campaign for everyone: its POST, then the list polled while the walk it starts runs. */
const walkCampaign = async (b: Bench): Promise<Walk> => {
  const { options, worker, db } = b;
  const walkStarted = performance.now();
  const created = await b.gateway.call(api.surveys.create, {
    body: { name: 'Everyone', surveyUrl: 'https://forms.example.com/bench' },
  });
  const campaignId = created.answer.campaign.id;
  log(`POST (every user): ${round(created.ms)} ms; the walk runs`);
  const during: number[] = [];
  let walkSeconds = NaN;
  for (;;) {
    // Every second, a burst of 5 polls per client: far more than admins polling every 30 s.
    during.push(
      ...(await worker.httpOk(options.concurrency, repeat(options.concurrency * 5, LIST_URL))).latencies,
    );
    await sleep(1000);
    const { total } = await one<{ total: number }>(
      db,
      `SELECT "total_target_users" AS total FROM "survey_campaigns" WHERE "id" = $1`,
      [campaignId],
    );
    if (total >= b.eligible) {
      walkSeconds = seconds(walkStarted);
      break;
    }
    if (seconds(walkStarted) > 3600) throw new Error(`the walk did not finish within an hour (${total})`);
  }
  const exact = await one<{ total: number; rows: number; targeted: number }>(
    db,
    `SELECT c."total_target_users" AS total,
            (SELECT count(*)::int FROM "survey_deliveries" d WHERE d."campaign_id" = c."id") AS rows,
            (SELECT count(*)::int FROM "users" u WHERE NOT u."is_test_user" AND NOT u."opted_out") AS targeted
       FROM "survey_campaigns" c WHERE c."id" = $1`,
    [campaignId],
  );
  log(
    `walk: ${count(exact.rows)} deliveries in ${walkSeconds} s ` +
      `(${count(Math.round(exact.rows / walkSeconds))}/s); totalTargetUsers ${exact.total}, ` +
      `eligible ${exact.targeted}: ${exact.total === exact.rows && exact.rows === exact.targeted ? 'exact' : 'NOT EXACT'}`,
  );
  await db.query(`VACUUM (ANALYZE) "survey_deliveries"`);
  return { campaignId, createdMs: created.ms, during, seconds: walkSeconds, ...exact };
};

/** More campaigns (new users only: nothing to walk), for the POST's latency distribution. */
const createMore = async ({ options, gateway }: Bench, firstMs: number): Promise<number[]> => {
  const creates = [firstMs];
  for (let i = 0; i < options.creates; i += 1) {
    const created = await gateway.call(api.surveys.create, {
      body: {
        name: `Newcomers ${i + 1}`,
        surveyUrl: 'https://forms.example.com/newcomers',
        targetExistingUsers: false,
      },
    });
    creates.push(created.ms);
  }
  return creates;
};

/** A URL polled by every client: warmed up with 40 requests, then `requests` measured. */
const poll = async ({ options, worker }: Bench, url: string): Promise<number[]> => {
  await worker.httpOk(options.concurrency, repeat(40, url));
  return (await worker.httpOk(options.concurrency, repeat(options.requests, url))).latencies;
};

interface Replies {
  latencies: number[];
  claimed: number;
  /** The conversation the links were claimed in (the pause phase claims in it too). */
  conversationId: string;
  /** deliveredCount as the list answers it, and the delivered rows: equal to `claimed` when exact. */
  deliveredCount: number | undefined;
  delivered: number;
}

/** The reply path: claim and mark, under the user's row lock, many users at once. */
const claimLinks = async (b: Bench, campaignId: string): Promise<Replies> => {
  const { options, db } = b;
  const sample = (
    await db.query<{ user_id: string }>(
      `SELECT "user_id" FROM "survey_deliveries" WHERE "campaign_id" = $1 ORDER BY md5("id"::text) LIMIT $2`,
      [campaignId, options.requests],
    )
  ).rows.map((r) => r.user_id);
  const conversation = await one<{ id: string }>(
    db,
    `INSERT INTO "conversations" ("user_id") VALUES ($1) RETURNING "id"`,
    [sample[0]],
  );
  const message = await one<{ id: string }>(
    db,
    `INSERT INTO "messages" ("user_id", "conversation_id", "direction", "content", "status")
     VALUES ($1, $2, 'outbound', 'bench', 'queued') RETURNING "id"`,
    [sample[0], conversation.id],
  );
  const latencies: number[] = [];
  let claimed = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      for (;;) {
        const userId = sample[next++];
        if (userId === undefined) return;
        const started = performance.now();
        await inTransaction(b.replyDb, async (manager) => {
          await manager.query(`SELECT 1 FROM "users" WHERE "id" = $1 FOR UPDATE`, [userId]);
          const due = await claimDueSurvey(manager, userId, conversation.id);
          if (due === null) return;
          await markSurveyDelivered(manager, due.deliveryId, {
            conversationId: conversation.id,
            messageId: message.id,
          });
          claimed += 1;
        });
        latencies.push(performance.now() - started);
      }
    }),
  );
  return {
    latencies,
    claimed,
    conversationId: conversation.id,
    ...(await deliveredCounts(b, campaignId, claimed)),
  };
};

/** deliveredCount as the console reads it, against the delivered rows and the claims. */
const deliveredCounts = async (
  { db, gateway }: Bench,
  campaignId: string,
  claimed: number,
): Promise<{ deliveredCount: number | undefined; delivered: number }> => {
  const listed = (await gateway.call(api.surveys.list, {})).answer;
  const deliveredCount = listed.find((c) => c.id === campaignId)?.deliveredCount;
  const { delivered } = await one<{ delivered: number }>(
    db,
    `SELECT count(*)::int AS delivered FROM "survey_deliveries" WHERE "campaign_id" = $1 AND "delivered_at" IS NOT NULL`,
    [campaignId],
  );
  log(
    `replies: ${claimed} links claimed and marked; deliveredCount ${deliveredCount}, delivered rows ${delivered}: ` +
      `${deliveredCount === delivered && delivered === claimed ? 'exact' : 'NOT EXACT'}`,
  );
  return { deliveredCount, delivered };
};

/** Pause, and no reply claims the link while paused. */
const pauseCampaign = async (
  b: Bench,
  campaignId: string,
  conversationId: string,
): Promise<{ ms: number; claimedWhilePaused: number }> => {
  const pause = await b.gateway.call(api.surveys.pause, { params: { id: campaignId } });
  const pausedUsers = (
    await b.db.query<{ user_id: string }>(
      `SELECT "user_id" FROM "survey_deliveries" WHERE "campaign_id" = $1 AND "delivered_at" IS NULL LIMIT 100`,
      [campaignId],
    )
  ).rows;
  let claimedWhilePaused = 0;
  for (const { user_id: userId } of pausedUsers) {
    await inTransaction(b.replyDb, async (manager) => {
      if ((await claimDueSurvey(manager, userId, conversationId)) !== null) claimedWhilePaused += 1;
    });
  }
  log(
    `pause: ${round(pause.ms)} ms; links claimed while paused: ${claimedWhilePaused} of ${pausedUsers.length}`,
  );
  return { ms: pause.ms, claimedWhilePaused };
};

// ---------------------------------------------------------------------------------------------
// Report

interface Measured {
  floor: Summary;
  walk: Walk;
  creates: number[];
  after: number[];
  replies: Replies;
  details: number[];
  pause: { ms: number; claimedWhilePaused: number };
}

/** The table on stdout and bench-results/surveys.json. */
const report = (options: Options, m: Measured): void => {
  const list = routeOf(api.surveys.list);
  const results = {
    [`floor: ${routeOf(api.auth.status)} (no database)`]: m.floor,
    [routeOf(api.surveys.create)]: summary(m.creates),
    [`${list} (during the walk, 40 polls a second)`]: summary(m.walk.during),
    [`${list} (after, ${options.creates + 1} campaigns)`]: summary(m.after),
    [`GET .../{id}/deliveries (${count(m.walk.rows)} deliveries)`]: summary(m.details),
    'reply: claim + mark a link': summary(m.replies.latencies),
  };
  const { replies, walk } = m;
  const loadAverage = os.loadavg().map((l) => round(l, 2));
  const written = writeResult('surveys.json', {
    generatedAt: new Date().toISOString(),
    database: options.database,
    users: options.users,
    targeted: walk.rows,
    concurrency: options.concurrency,
    cores: os.cpus().length,
    loadAverage,
    walk: { seconds: walk.seconds, deliveriesPerSecond: Math.round(walk.rows / walk.seconds) },
    exact: {
      totalTargetUsers: walk.total === walk.rows && walk.rows === walk.targeted,
      deliveredCount: replies.deliveredCount === replies.delivered && replies.delivered === replies.claimed,
    },
    pause: { ms: round(m.pause.ms), claimedWhilePaused: m.pause.claimedWhilePaused },
    latenciesMs: results,
  });
  const header = `| measured | n | p50 | p95 | max |\n|---|---|---|---|---|`;
  const rows = Object.entries(results).map(
    ([name, s]) => `| ${name} | ${s.n} | ${s.p50} ms | ${s.p95} ms | ${s.max} ms |`,
  );
  process.stdout.write(`\n${header}\n${rows.join('\n')}\n\n`);
  log(`written ${written} (load average ${loadAverage.join(' ')})`);
};

/** The phases in order, each on what the ones before left. */
const measurePhases = async (b: Bench): Promise<Measured> => {
  const floor = await measureFloor(b);
  const walk = await walkCampaign(b);
  const creates = await createMore(b, walk.createdMs);
  const after = await poll(b, LIST_URL);
  const replies = await claimLinks(b, walk.campaignId);
  // The details dialog of the 1M-delivery campaign.
  const details = await poll(b, endpointUrl(api.surveys.deliveries, { params: { id: walk.campaignId } }));
  const pause = await pauseCampaign(b, walk.campaignId, replies.conversationId);
  return { floor, walk, creates, after, replies, details, pause };
};

export const main = async (argv: string[]): Promise<void> => {
  const options = parseOptions(argv);
  const { adminUrl, redisUrl } = benchServers();
  const { databaseUrl, db, eligible } = await prepareDatabase(options, adminUrl);
  const prefix = `bench-surveys-${randomBytes(4).toString('hex')}`;
  const gateway = await startApiGateway({ databaseUrl, redisUrl, bullmqPrefix: prefix });
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
  const { baseUrl, cookie } = gateway;
  const worker = new LoadWorker({ baseUrl, cookie, databaseUrl, concurrency: options.concurrency });
  try {
    report(options, await measurePhases({ options, db, gateway, worker, replyDb, eligible }));
  } finally {
    await worker.close();
    await replyDb.end();
    await scheduler.close();
    await gateway.close();
    await db.end();
    await removeRunKeys(redisUrl, prefix);
  }
};
