// `npm run bench:pipeline`: the message path measured on a private Postgres database
// and Redis prefix, with the fake Twilio and the fake OpenAI (which answers at once) in this
// process and each service in a process of its own (tools/bench/pipeline-service.mjs), so each
// one's RSS and CPU are its own. In one run:
// 1. the inbound webhook (signature, persist, enqueue, TwiML) at fixed open-loop arrival rates,
//    p50 / p99 / p99.9, beside a bare Fastify handler doing the same essential work (HMAC check,
//    one INSERT, one BullMQ add; pipeline-bare.ts) in alternating rounds, as ratios; then both
//    driven closed-loop for their throughput, as a ratio. sms.inbound is paused meanwhile so the
//    webhook is measured alone (its backlog is dropped after);
// 2. the webhook's steps timed one by one in this process (signature, the message writer's
//    transaction, the enqueue);
// 3. the edge (services/edge, its own process, configured as its main.ts) in front of sms-gateway
//    and an api-gateway process: 8 clients closed loop in alternating rounds of a signed webhook
//    through the edge, api-gateway's liveness route through the edge, and both straight to their
//    service, p50 / p99 and the webhook's p99 over the liveness route's (sms.inbound still paused);
// 4. the pipeline overhead at a steady arrival rate: webhook accepted -> the fake Twilio's API
//    receives the reply, p50 / p95, split by hop from the BullMQ jobs' timestamps;
// 5. the largest sustained replies per second: a backlog of texts (webhooks sent while
//    sms.inbound is paused) drained by one replica of each worker, then by two ai-responders,
//    with each service's CPU profile summarised by step (pipeline-profile.mjs) and its RSS / CPU.
// Writes bench-results/pipeline.json and bench-results/pipeline.md (pipeline-report.ts); the services'
// processes and their CPU and memory: pipeline-processes.ts.
//
// Options: --quick (about 1.5 minutes), --rates=200,500,1000, --seconds=<per webhook round>,
// --rounds=<alternating rounds per rate>, --pipeline-rate=50, --backlog=<texts per drain>,
// --db=<sprout_bench_pipeline>, --drain-only (only step 5 with one ai-responder: CPU and SQL
// statements per reply, for before/after comparisons), --edge-only (only step 3, about a minute),
// --edge-seconds=<per round and side>, --edge-rounds, --edge-clients=8, --dist (the services from their builds, as
// deployed), --responder-node-options=<NODE_OPTIONS of ai-responder alone>. When the server loads pg_stat_statements
// (shared_preload_libraries), each drain also counts the SQL statements per text.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { OUTBOUND_PROVIDER_STATUSES, api, jobDefinitions } from '@sprout/contracts';
import { ALL_ENTITIES, ALL_MIGRATIONS, recordInbound, runMigrations } from '@sprout/domain';
import { findFreePort } from '@sprout/platform';
import { validateTwilioSignature } from '@sprout/sms';
import { FakeOpenAI, FakeTwilio, signTwilioWebhook } from '@sprout/testing';
import { databaseUrl as urlOf } from '../seed/bulk';
import { unassignedPhoneAt } from '../seed/phones';
import { benchServers, log, quantile, readFlags, round, sleep } from './harness';
import { BARE_TABLE_SQL } from './pipeline-bare';
import {
  type Service,
  type Usage,
  cpuPerMessage,
  dataPids,
  sampleUsage,
  startService,
} from './pipeline-processes';
import { writeReport } from './pipeline-report';

const WEBHOOK_PATH = api.webhooks.inboundSms.path;
/** api-gateway's cheapest route: liveness, answered without Postgres, Redis or a session. */
const LIVE_PATH = '/health/live';
const STATUS_PATH = api.webhooks.statusCallback.path;
const AUTH_TOKEN = 'bench-pipeline-auth-token';
const ACCOUNT_SID = `AC${'b'.repeat(32)}`;
const SENDER = '+15005550006';

const parseOptions = (argv: string[]) => {
  const flags = readFlags(argv);
  const quick = flags.has('quick');
  const rates = (flags.text('rates') ?? '200,500,1000').split(',').map(Number);
  if (rates.some((r) => !Number.isFinite(r) || r <= 0)) throw new Error('--rates must be numbers');
  return {
    quick,
    rates,
    seconds: flags.positive('seconds', quick ? 3 : 8),
    rounds: flags.positive('rounds', quick ? 1 : 2),
    pipelineRate: flags.positive('pipeline-rate', 50),
    pipelineSeconds: flags.positive('pipeline-seconds', quick ? 6 : 20),
    backlog: flags.positive('backlog', quick ? 600 : 3000),
    closedSeconds: flags.positive('closed-seconds', quick ? 3 : 6),
    database: flags.text('db') ?? 'sprout_bench_pipeline',
    /** Only the drain by one ai-responder (CPU and statements per reply): before/after comparisons. */
    drainOnly: flags.has('drain-only'),
    /** Only the edge's step: a webhook through the edge against a trivial request through it. */
    edgeOnly: flags.has('edge-only'),
    edgeSeconds: flags.positive('edge-seconds', quick ? 2 : 4),
    edgeRounds: flags.positive('edge-rounds', quick ? 2 : 3),
    edgeClients: flags.positive('edge-clients', 8),
    /** sms-gateway and ai-responder from their builds (dist), as the image runs them, not from source. */
    dist: flags.has('dist'),
    /** NODE_OPTIONS of ai-responder alone, e.g. V8's heap limits measured for their CPU cost. */
    responderNodeOptions: flags.text('responder-node-options'),
    /** With --drain-only: then status callbacks for the replies at this rate (open loop), if given. */
    statusRate: flags.has('status-rate') ? flags.positive('status-rate', 1) : undefined,
    statusSeconds: flags.positive('status-seconds', 10),
  };
};

type Options = ReturnType<typeof parseOptions>;

const mean = (values: number[]): number =>
  values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;

// ---------------------------------------------------------------------------------------------
// Load

interface LoadResult {
  latencies: number[];
  acceptedAt: number[];
  errors: string[];
  wallMs: number;
  sent: number;
  timedOut?: number;
}

const startLoad = () => {
  const worker = new Worker(path.join(__dirname, 'pipeline-load.mjs'));
  let nextId = 1;
  const waiting = new Map<number, (result: LoadResult) => void>();
  worker.on('message', (message: LoadResult & { id: number; fatal?: string }) => {
    if (message.fatal) throw new Error(message.fatal);
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const run = (message: Record<string, unknown>): Promise<LoadResult> =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      worker.postMessage({ ...message, id });
    });
  return { run, close: () => worker.terminate() };
};

/** A gardener's text: from a number no earlier text of the run used (unassigned: it reaches no phone). */
interface Text {
  phone: string;
  sid: string;
  body: string;
}

const QUESTIONS = [
  'When should I plant garlic in zone 7?',
  'My tomato leaves are curling, what is wrong?',
  'How often should I water basil?',
  'Can I grow peas in the fall?',
];

let textsMade = 0;
const newTexts = (n: number): Text[] =>
  Array.from({ length: n }, () => {
    textsMade += 1;
    return {
      phone: unassignedPhoneAt(textsMade),
      sid: `SM${textsMade.toString(16).padStart(32, '0')}`,
      body: QUESTIONS[textsMade % QUESTIONS.length] ?? '',
    };
  });

const signed = (publicBaseUrl: string, texts: Text[]) =>
  texts.map((text) => {
    const params = {
      MessageSid: text.sid,
      AccountSid: ACCOUNT_SID,
      From: text.phone,
      To: SENDER,
      Body: text.body,
      NumMedia: '0',
    };
    return {
      path: WEBHOOK_PATH,
      body: new URLSearchParams(params).toString(),
      signature: signTwilioWebhook(AUTH_TOKEN, `${publicBaseUrl}${WEBHOOK_PATH}`, params),
    };
  });

const latencySummary = (result: LoadResult) => {
  // Unanswered requests stay in as Infinity: a percentile they reach reads as "timed out".
  const ok = result.latencies.filter((l) => l >= 0);
  const answered = ok.filter((l) => Number.isFinite(l));
  return {
    n: result.sent,
    ok: answered.length,
    timedOut: ok.length - answered.length,
    errors: result.sent - ok.length,
    firstErrors: result.errors.filter((e) => e !== '').slice(0, 3),
    p50: round(quantile(ok, 0.5), 2),
    p99: round(quantile(ok, 0.99), 2),
    p999: round(quantile(ok, 0.999), 2),
    achievedPerSecond: round((answered.length / result.wallMs) * 1000),
  };
};

// ---------------------------------------------------------------------------------------------
// Statements and hops

/**
 * Empties pg_stat_statements before a drain; false when the server does not load it (it must be in
 * shared_preload_libraries; the benchmark then reports no statement counts).
 */
const resetStatements = async (sql: Client): Promise<boolean> => {
  try {
    await sql.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await sql.query('SELECT pg_stat_statements_reset()');
    return true;
  } catch {
    return false;
  }
};

/**
 * The statements the services sent while draining (top level: one per round trip, BEGIN and COMMIT
 * included), per reply written in the window, most frequent first.
 */
const readStatements = async (sql: Client, texts: number) => {
  const { rows } = await sql.query<{ query: string; calls: string; ms: number }>(
    `SELECT query, calls::text AS calls, total_exec_time AS ms FROM pg_stat_statements s
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND query NOT LIKE '%pg_stat_statements%'
      ORDER BY s.calls DESC`,
  );
  const calls = rows.reduce((sum, r) => sum + Number(r.calls), 0);
  return {
    perText: round(calls / Math.max(1, texts), 2),
    execMsPerText: round(rows.reduce((sum, r) => sum + r.ms, 0) / Math.max(1, texts), 2),
    top: rows.slice(0, 40).map((r) => ({
      perText: round(Number(r.calls) / Math.max(1, texts), 2),
      execMsPerText: round(r.ms / Math.max(1, texts), 3),
      query: r.query.replace(/\s+/g, ' ').slice(0, 200),
    })),
  };
};

/** Per hop of a sample of texts, from the BullMQ jobs' timestamps (ms): where the time goes. */
const pipelineHops = async (
  sql: Client,
  inboundQueue: Queue,
  outboundQueue: Queue,
  texts: Text[],
  twilioAt: Map<string, number>,
) => {
  const { rows } = await sql.query<{
    phone: string;
    inbound_id: string;
    inbound_at: Date;
    reply_id: string | null;
  }>(
    `SELECT u.phone_number AS phone, m.id AS inbound_id, m.created_at AS inbound_at,
            (SELECT r.id FROM messages r WHERE r.conversation_id = m.conversation_id AND r.direction = 'outbound'
              ORDER BY r.created_at LIMIT 1) AS reply_id
       FROM messages m JOIN users u ON u.id = m.user_id
      WHERE u.phone_number = ANY ($1) AND m.direction = 'inbound'`,
    [texts.map((t) => t.phone)],
  );
  const parts: Record<string, number[]> = {
    'sms.inbound queue wait (Redis hop)': [],
    'ai-responder job (analysis, gardening, prompt, model, reply written)': [],
    'sms.outbound queue wait (Redis hop)': [],
    'sms-gateway send job until the Twilio call': [],
  };
  for (const row of rows) {
    const inbound = await inboundQueue.getJob(`inbound-${row.inbound_id}`);
    const outbound = row.reply_id ? await outboundQueue.getJob(`outbound-${row.reply_id}`) : undefined;
    const at = twilioAt.get(row.phone);
    if (!inbound?.processedOn || !inbound.finishedOn || !outbound?.processedOn || at === undefined) continue;
    parts['sms.inbound queue wait (Redis hop)']?.push(inbound.processedOn - inbound.timestamp);
    parts['ai-responder job (analysis, gardening, prompt, model, reply written)']?.push(
      inbound.finishedOn - inbound.processedOn,
    );
    parts['sms.outbound queue wait (Redis hop)']?.push(outbound.processedOn - outbound.timestamp);
    parts['sms-gateway send job until the Twilio call']?.push(at - outbound.processedOn);
  }
  const total = Object.values(parts).reduce((s, v) => s + mean(v), 0);
  return Object.entries(parts).map(([hop, values]) => ({
    hop,
    n: values.length,
    p50: round(quantile(values, 0.5), 1),
    mean: round(mean(values), 1),
    share: round((mean(values) / total) * 100),
  }));
};

// ---------------------------------------------------------------------------------------------
// Setup

type Load = ReturnType<typeof startLoad>;

/** Everything a phase works with: the private database, the fakes, the services and the load generator. */
interface Pipeline {
  options: Options;
  sql: Client;
  databaseUrl: string;
  publicBaseUrl: string;
  twilio: FakeTwilio;
  openai: FakeOpenAI;
  /** When each reply reached the Twilio API (epoch ms), by recipient. */
  twilioAt: Map<string, number>;
  queue: (name: string) => Queue;
  inboundQueue: Queue;
  outboundQueue: Queue;
  gateway: Service;
  responder: Service;
  bare: Service;
  /** The second ai-responder: loaded at the start, started for the second drain. */
  responder2: Service & { go(): Promise<void> };
  /** The edge in front of sms-gateway and an api-gateway (not started with --drain-only). */
  edgeStack: { edge: Service; apiGateway: Service } | null;
  load: Load;
  /** What has been measured so far, written after each phase. */
  results: Record<string, unknown>;
  started: number;
  load1: number;
}

/** The private database, created again and migrated, with the bare handler's table. */
const createDatabase = async (
  options: Options,
  adminUrl: string,
): Promise<{ databaseUrl: string; sql: Client }> => {
  const databaseUrl = urlOf(adminUrl, options.database);
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${options.database}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${options.database}"`);
  await admin.end();
  await runMigrations(databaseUrl);
  const sql = new Client({ connectionString: databaseUrl, application_name: 'bench-pipeline' });
  await sql.connect();
  await sql.query(BARE_TABLE_SQL);
  return { databaseUrl, sql };
};

/** The fake Twilio (noting when each reply reaches it) and the fake OpenAI, answering at once. */
const startFakes = async (): Promise<Pick<Pipeline, 'twilio' | 'openai' | 'twilioAt'>> => {
  const twilio = await FakeTwilio.start({
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    callbackDelayMs: 25,
  });
  const openai = await FakeOpenAI.start();
  const twilioAt = new Map<string, number>();
  const push = twilio.sent.push.bind(twilio.sent);
  twilio.sent.push = (...items) => {
    const at = performance.timeOrigin + performance.now();
    for (const item of items) if (!twilioAt.has(item.to)) twilioAt.set(item.to, at);
    return push(...items);
  };
  return { twilio, openai, twilioAt };
};

/** The services' environment: this run's database and prefix, the fakes, no pacing. */
const serviceEnv = (settings: {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  twilioUrl: string;
  publicBaseUrl: string;
}): Record<string, string> => ({
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  DATABASE_URL: settings.databaseUrl,
  REDIS_URL: settings.redisUrl,
  BULLMQ_PREFIX: settings.prefix,
  TWILIO_ACCOUNT_SID: ACCOUNT_SID,
  TWILIO_AUTH_TOKEN: AUTH_TOKEN,
  TWILIO_PHONE_NUMBER: SENDER,
  TWILIO_API_BASE_URL: settings.twilioUrl,
  PUBLIC_BASE_URL: settings.publicBaseUrl,
  // The benchmark measures the path, not carrier pacing: the sender may send as fast as it can.
  SMS_SEND_RATE_PER_SECOND: '1000',
  SMS_SENDER_RATES: `${SENDER}=10000`,
  SESSION_SECRET: 'bench-pipeline-session-secret-0123456789',
  ADMIN_PASSWORD: 'bench-pipeline-password',
  // As `npm start` sets it: the edge on loopback writes X-Forwarded-For, and is believed.
  TRUST_PROXY: '127.0.0.1,::1',
});

/** Worker and pool settings the services inherit from this run's environment (unset: their default). */
const SERVICE_SETTINGS = [
  'SMS_INBOUND_CONCURRENCY',
  'SMS_OUTBOUND_CONCURRENCY',
  'SMS_STATUS_CONCURRENCY',
  'DATABASE_POOL_SIZE',
] as const;
const serviceSettings = (): Record<string, string> =>
  Object.fromEntries(SERVICE_SETTINGS.map((name) => [name, process.env[name] ?? 'default']));

/** sms-gateway, ai-responder, the bare handler and a second ai-responder (loaded only), one process each. */
const startServices = async (
  common: Record<string, string>,
  responderEnv: Record<string, string>,
  gatewayPort: number,
) => {
  log('starting sms-gateway, ai-responder and the bare handler (one process each)');
  const gatewayFixedPort = async (): Promise<Service> => {
    // The gateway's port is fixed up front: the signatures are computed on its public URL.
    const service = await startService('sms-gateway', 'sms-gateway', {
      ...common,
      PORT: String(gatewayPort),
    });
    return { ...service, port: gatewayPort };
  };
  const [gateway, responder, bare, responder2] = await Promise.all([
    gatewayFixedPort(),
    startService('ai-responder', 'ai-responder', responderEnv),
    startService('bare', 'bare', common),
    // The second replica is loaded now and started for the second drain.
    startService('ai-responder', 'ai-responder-2', responderEnv, true),
  ]);
  return { gateway, responder, bare, responder2 };
};

/**
 * api-gateway in a process of its own (as sms-gateway is, so neither shares an event loop or a core
 * with the load generator or the other), and the edge in another, as its main.ts runs it, in front
 * of it and sms-gateway; the edge's spool in a private folder.
 */
const startEdgeStack = async (common: Record<string, string>, gatewayPort: number) => {
  const apiGatewayPort = await findFreePort();
  // The edge retries refused connections: it may start before its upstreams listen.
  const [apiGateway, edge] = await Promise.all([
    startService('api-gateway', 'api-gateway', { ...common, PORT: String(apiGatewayPort) }),
    startService('edge', 'edge', {
      ...common,
      EDGE_HOST: '127.0.0.1',
      API_GATEWAY_URL: `http://127.0.0.1:${apiGatewayPort}`,
      SMS_GATEWAY_URL: `http://127.0.0.1:${gatewayPort}`,
      EDGE_SPOOL_DIR: path.join(os.tmpdir(), `bench-pipeline-edge-spool-${process.pid}`),
    }),
  ]);
  return { apiGateway, edge };
};

const setUp = async (options: Options, started: number, load1: number): Promise<Pipeline> => {
  const { adminUrl, redisUrl } = benchServers();
  const prefix = `bench-pipeline-${randomBytes(4).toString('hex')}`;
  log(`private database ${options.database}, Redis prefix ${prefix}${options.quick ? ' (quick)' : ''}`);
  const { databaseUrl, sql } = await createDatabase(options, adminUrl);
  const fakes = await startFakes();
  const gatewayPort = await findFreePort();
  const publicBaseUrl = `http://127.0.0.1:${gatewayPort}`;
  const common = {
    ...serviceEnv({ databaseUrl, redisUrl, prefix, twilioUrl: fakes.twilio.url, publicBaseUrl }),
    BENCH_FROM_DIST: options.dist ? '1' : '0',
  };
  const responderEnv = {
    ...common,
    OPENAI_API_KEY: fakes.openai.apiKey,
    OPENAI_BASE_URL: fakes.openai.baseURL,
    ...(options.responderNodeOptions === undefined ? {} : { NODE_OPTIONS: options.responderNodeOptions }),
  };
  const queue = (name: string) =>
    new Queue(name, { prefix, connection: { url: redisUrl, maxRetriesPerRequest: null } });
  const inboundQueue = queue('sms.inbound');
  const outboundQueue = queue('sms.outbound');
  const [services, edgeStack] = await Promise.all([
    startServices(common, responderEnv, gatewayPort),
    options.drainOnly ? null : startEdgeStack(common, gatewayPort),
  ]);
  return {
    options,
    sql,
    databaseUrl,
    publicBaseUrl,
    ...fakes,
    queue,
    inboundQueue,
    outboundQueue,
    ...services,
    edgeStack,
    load: startLoad(),
    results: { serviceSettings: serviceSettings() },
    started,
    load1,
  };
};

/** Everything stopped, and the private prefix goes with the run: every queue's jobs and retained results. */
const shutDown = async (p: Pipeline): Promise<void> => {
  await p.load.close();
  const edgeStack = p.edgeStack === null ? [] : [p.edgeStack.edge, p.edgeStack.apiGateway];
  for (const service of [...edgeStack, p.gateway, p.responder, p.bare, p.responder2]) await service.stop();
  for (const name of [...Object.keys(jobDefinitions), 'bench.bare']) {
    const each = p.queue(name);
    await each.obliterate({ force: true }).catch(() => undefined);
    await each.close();
  }
  await p.inboundQueue.close();
  await p.outboundQueue.close();
  await p.twilio.close();
  await p.openai.close();
  await p.sql.end();
};

const save = (p: Pipeline): string => writeReport(p.options, p.results, p.started, p.load1);

const usageOf = (p: Pipeline, processes: Record<string, number>) =>
  sampleUsage(p.options.database, processes);

/**
 * Drops the texts queued so far, on purpose: their jobs and their awaiting_replies rows (else
 * the inbound sweep would answer them during the next phase).
 */
const dropBacklog = async (p: Pipeline): Promise<void> => {
  await p.inboundQueue.drain(true);
  await p.sql.query('DELETE FROM awaiting_replies');
};

/** Until every text's reply reached the fake Twilio, or the timeout. */
const waitFor = async (p: Pipeline, texts: Text[], timeoutMs: number): Promise<void> => {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (texts.every((t) => p.twilioAt.has(t.phone))) return;
    await sleep(50);
  }
};

// ---------------------------------------------------------------------------------------------
// Phases

/** JIT, pools, the first user and conversation statements (sms.inbound paused: nothing is answered). */
const warmUp = async (p: Pipeline): Promise<void> => {
  await p.inboundQueue.pause();
  for (const target of [p.gateway, p.bare]) {
    await p.load.run({
      mode: 'open',
      port: target.port,
      rate: 100,
      requests: signed(p.publicBaseUrl, newTexts(300)),
    });
  }
};

/** 1a. Throughput, closed loop, first: later open-loop runs past capacity leave work in flight. */
const closedLoop = async (p: Pipeline): Promise<Record<string, unknown>> => {
  const closed: Record<string, unknown> = {};
  for (const [side, target] of [
    ['sprout', p.gateway],
    ['bare', p.bare],
  ] as const) {
    const requests = signed(p.publicBaseUrl, newTexts(Math.round(3000 * p.options.closedSeconds)));
    const usage = usageOf(p, { service: target.child.pid ?? 0 });
    const result = await p.load.run({
      mode: 'closed',
      port: target.port,
      concurrency: 32,
      durationMs: p.options.closedSeconds * 1000,
      requests,
    });
    closed[side] = {
      perSecond: round((result.latencies.length / result.wallMs) * 1000),
      p50: round(quantile(result.latencies, 0.5), 2),
      p99: round(quantile(result.latencies, 0.99), 2),
      errors: result.errors.length,
      cpuMsPerRequest: cpuPerMessage(usage.stop(), result.latencies.length),
    };
    await sleep(500);
  }
  const closedSprout = closed.sprout as { perSecond: number };
  const closedBare = closed.bare as { perSecond: number };
  closed.throughputRatio = round(closedSprout.perSecond / closedBare.perSecond, 2);
  log(
    `  closed loop (32 clients): sprout ${closedSprout.perSecond}/s, bare ${closedBare.perSecond}/s, ratio ${String(closed.throughputRatio)}`,
  );
  return closed;
};

const merge = (list: LoadResult[]): LoadResult => ({
  latencies: list.flatMap((l) => l.latencies),
  acceptedAt: [],
  errors: list.flatMap((l) => l.errors),
  wallMs: list.reduce((s, l) => s + l.wallMs, 0),
  sent: list.reduce((s, l) => s + l.sent, 0),
});

const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) ? round(a / b, 2) : null);

/** CPU-ms per answered request: the service's process and Postgres's backends. */
const perRequest = (cpu: { service: number; postgres: number }, answered: number) => ({
  service: round(cpu.service / Math.max(1, answered), 2),
  postgres: round(cpu.postgres / Math.max(1, answered), 2),
});

/** 1. The webhook at one arrival rate, alternating with the bare handler. */
const webhookAtRate = async (p: Pipeline, rate: number): Promise<Record<string, unknown>> => {
  const runs: Record<'sprout' | 'bare', LoadResult[]> = { sprout: [], bare: [] };
  const cpu = { sprout: { service: 0, postgres: 0 }, bare: { service: 0, postgres: 0 } };
  for (let r = 0; r < p.options.rounds; r += 1) {
    for (const [side, target] of [
      ['sprout', p.gateway],
      ['bare', p.bare],
    ] as const) {
      const requests = signed(p.publicBaseUrl, newTexts(Math.round(rate * p.options.seconds)));
      const usage = usageOf(p, { service: target.child.pid ?? 0 });
      runs[side].push(await p.load.run({ mode: 'open', port: target.port, rate, requests }));
      const used = usage.stop();
      cpu[side].service += used.service?.cpuMs ?? 0;
      cpu[side].postgres += used.postgres?.cpuMs ?? 0;
      // Let anything a timed-out run left in flight finish before the other side runs.
      await sleep(runs[side].at(-1)?.timedOut ? 10_000 : 500);
    }
  }
  const sprout = latencySummary(merge(runs.sprout));
  const baseline = latencySummary(merge(runs.bare));
  const row = {
    rate,
    sprout,
    bare: baseline,
    ratioP50: ratio(sprout.p50, baseline.p50),
    ratioP99: ratio(sprout.p99, baseline.p99),
    ratioP999: ratio(sprout.p999, baseline.p999),
    cpuMsPerRequest: { sprout: perRequest(cpu.sprout, sprout.ok), bare: perRequest(cpu.bare, baseline.ok) },
  };
  log(
    `  ${rate}/s: sprout p50 ${sprout.p50} p99 ${sprout.p99} p99.9 ${sprout.p999} ms (${sprout.achievedPerSecond}/s, ${sprout.errors} errors, ${sprout.timedOut} timed out); ` +
      `bare p50 ${baseline.p50} p99 ${baseline.p99} p99.9 ${baseline.p999} ms; ratio p99 ${row.ratioP99}`,
  );
  return row;
};

/** 1. The webhook closed-loop, then at each arrival rate; its processes' usage over the phase. */
const webhookPhase = async (p: Pipeline): Promise<void> => {
  const closed = await closedLoop(p);
  log(
    `webhook: ${p.options.rates.join(', ')} req/s, ${p.options.rounds} round(s) of ${p.options.seconds} s each side`,
  );
  const webhookUsage = usageOf(p, { 'sms-gateway': p.gateway.child.pid ?? 0, bare: p.bare.child.pid ?? 0 });
  const webhook: Record<string, unknown>[] = [];
  for (const rate of p.options.rates) webhook.push(await webhookAtRate(p, rate));
  p.results.webhook = { rates: webhook, closedLoop: closed, usage: webhookUsage.stop() };
  save(p);
};

/** 2. The webhook's steps, one at a time (this process, its own pool of 10), in ms per text. */
const timeSteps = async (p: Pipeline): Promise<Record<string, number[]>> => {
  const ds = new DataSource({
    type: 'postgres',
    url: p.databaseUrl,
    entities: ALL_ENTITIES,
    migrations: ALL_MIGRATIONS,
    extra: { max: 10 },
  });
  await ds.initialize();
  const steps: Record<string, number[]> = { signature: [], 'message writer (transaction)': [], enqueue: [] };
  const stepTexts = newTexts(p.options.quick ? 200 : 500);
  const stepRequests = signed(p.publicBaseUrl, stepTexts);
  for (let i = 0; i < stepTexts.length; i += 1) {
    const text = stepTexts[i] as Text;
    const request = stepRequests[i] as { body: string; signature: string };
    let at = performance.now();
    const params = Object.fromEntries(new URLSearchParams(request.body));
    if (
      !validateTwilioSignature({
        authToken: AUTH_TOKEN,
        url: `${p.publicBaseUrl}${WEBHOOK_PATH}`,
        params,
        signature: request.signature,
      })
    )
      throw new Error('bench signature did not validate');
    steps.signature?.push(performance.now() - at);
    at = performance.now();
    const record = await recordInbound(ds, {
      from: { phoneNumber: text.phone },
      content: text.body,
      providerSid: text.sid,
      idleTimeoutMs: 6 * 60 * 60 * 1000,
    });
    steps['message writer (transaction)']?.push(performance.now() - at);
    at = performance.now();
    await p.inboundQueue.add(
      'sms.inbound',
      { messageId: record?.messageId },
      { jobId: `inbound-${record?.messageId}` },
    );
    steps.enqueue?.push(performance.now() - at);
  }
  await ds.destroy();
  return steps;
};

/** 2. The steps against the whole webhook at a rate far below capacity: what the rest costs. */
const webhookStepsPhase = async (p: Pipeline): Promise<void> => {
  log('webhook steps, timed one by one');
  const steps = await timeSteps(p);
  // The whole webhook at 5 req/s: no queueing, so p50 minus the steps is what HTTP, routing, form
  // parsing and validation and the TwiML cost.
  const unhurried = await p.load.run({
    mode: 'open',
    port: p.gateway.port,
    rate: 5,
    requests: signed(p.publicBaseUrl, newTexts(p.options.quick ? 25 : 60)),
  });
  const webhookAt5 = round(
    quantile(
      unhurried.latencies.filter((l) => l >= 0 && Number.isFinite(l)),
      0.5,
    ),
    2,
  );
  const stepRows = Object.entries(steps).map(([step, values]) => ({
    step,
    p50: round(quantile(values, 0.5), 3),
    mean: round(mean(values), 3),
  }));
  const stepSum = stepRows.reduce((s, r) => s + r.p50, 0);
  p.results.webhookSteps = {
    steps: stepRows,
    webhookP50At5PerSecond: webhookAt5,
    restP50: round(webhookAt5 - stepSum, 2),
    note: 'rest = the webhook p50 at 5 req/s minus the steps: HTTP, Fastify/Nest routing, form parsing and validation, TwiML',
  };
  log(
    `  ${stepRows.map((r) => `${r.step} ${r.p50} ms`).join(', ')}; rest ${round(webhookAt5 - stepSum, 2)} ms`,
  );
};

interface EdgeSide {
  label: string;
  port: number;
  /** `n` requests, each sent once (webhooks from numbers no earlier text used). */
  make(n: number): { path: string; body?: string; signature?: string }[];
  /** Requests made ready per second of a round: more than its clients can send. */
  perSecond: number;
}

/** One side's rounds put together: latencies, errors, wall time, CPU-ms by process. */
interface EdgeRounds {
  latencies: number[];
  errors: number;
  wallMs: number;
  cpuMs: Record<string, number>;
}

/** p50 / p99 of one side's rounds put together, and its CPU-ms per request by process. */
const edgeSideSummary = ({ latencies, errors, wallMs, cpuMs }: EdgeRounds) => ({
  n: latencies.length,
  errors,
  perSecond: round((latencies.length / wallMs) * 1000),
  p50: round(quantile(latencies, 0.5), 2),
  p99: round(quantile(latencies, 0.99), 2),
  cpuMsPerRequest: Object.fromEntries(
    Object.entries(cpuMs).map(([name, used]) => [name, round(used / Math.max(1, latencies.length), 3)]),
  ),
});

/**
 * 3. The edge: a signed webhook through it against api-gateway's liveness route through it, and both
 * straight to their service, `edgeClients` clients closed loop, in alternating rounds (the order
 * turns each round, so no side always follows the same one). sms.inbound stays paused.
 */
const edgePhase = async (p: Pipeline): Promise<void> => {
  if (p.edgeStack === null) return;
  const { edge, apiGateway } = p.edgeStack;
  const { edgeSeconds, edgeRounds, edgeClients } = p.options;
  log(`edge: ${edgeClients} clients closed loop, ${edgeRounds} round(s) of ${edgeSeconds} s each side`);
  const webhooks = (n: number) => signed(p.publicBaseUrl, newTexts(n));
  const lives = (n: number) => Array.from({ length: n }, () => ({ path: LIVE_PATH }));
  const pids = {
    edge: edge.child.pid ?? 0,
    'sms-gateway': p.gateway.child.pid ?? 0,
    'api-gateway': apiGateway.child.pid ?? 0,
  };
  // Webhooks cannot go past a few hundred a second here; liveness goes to thousands.
  const sides: EdgeSide[] = [
    { label: 'webhook via edge', port: edge.port, make: webhooks, perSecond: 1500 },
    { label: 'liveness via edge', port: edge.port, make: lives, perSecond: 6000 },
    { label: 'webhook straight to sms-gateway', port: p.gateway.port, make: webhooks, perSecond: 1500 },
    { label: 'liveness straight to api-gateway', port: apiGateway.port, make: lives, perSecond: 6000 },
  ];
  const run = (side: EdgeSide, seconds: number) =>
    p.load.run({
      mode: 'closed',
      port: side.port,
      concurrency: edgeClients,
      durationMs: seconds * 1000,
      requests: side.make(Math.round(side.perSecond * seconds)),
    });
  // Warm-up: JIT, and the edge's and the clients' pooled connections.
  for (const side of sides) await run(side, 1);
  const collected = sides.map((): EdgeRounds => ({ latencies: [], errors: 0, wallMs: 0, cpuMs: {} }));
  for (let r = 0; r < edgeRounds; r += 1) {
    for (let k = 0; k < sides.length; k += 1) {
      const i = (r + k) % sides.length;
      const side = sides[i] as EdgeSide;
      const into = collected[i] as EdgeRounds;
      const usage = usageOf(p, pids);
      const result = await run(side, edgeSeconds);
      const used = usage.stop();
      into.latencies.push(...result.latencies);
      into.errors += result.errors.length;
      into.wallMs += result.wallMs;
      for (const [name, u] of Object.entries(used))
        if (name !== 'redis') into.cpuMs[name] = (into.cpuMs[name] ?? 0) + u.cpuMs;
    }
  }
  // Where the webhook's CPU goes in the edge and in sms-gateway: one more round, profiled (the
  // sampling costs CPU, so its latencies are left out).
  const profiled = [edge, p.gateway];
  await Promise.all(profiled.map((s) => s.ask({ profile: 'start' })));
  await run(sides[0] as EdgeSide, edgeSeconds);
  const profiles = await Promise.all(profiled.map((s) => s.ask({ profile: 'stop' })));
  const rows = sides.map((side, i) => {
    const c = collected[i] as EdgeRounds;
    return { side: side.label, ...edgeSideSummary(c) };
  });
  const [viaEdge, liveViaEdge, direct, liveDirect] = rows;
  /** p50 and p99 of one side over another's. */
  const over = (a?: { p50: number; p99: number }, b?: { p50: number; p99: number }) => ({
    p50: a && b ? round(a.p50 / b.p50, 2) : null,
    p99: a && b ? round(a.p99 / b.p99, 2) : null,
  });
  const webhookOverLiveness = over(viaEdge, liveViaEdge);
  const webhookEdgeOverDirect = over(viaEdge, direct);
  p.results.edge = {
    clients: edgeClients,
    seconds: edgeSeconds,
    rounds: edgeRounds,
    sides: rows,
    webhookOverLivenessViaEdge: webhookOverLiveness,
    webhookEdgeOverDirect,
    livenessEdgeOverDirect: over(liveViaEdge, liveDirect),
    target: 'webhook p99 through the edge at most 1.5 x the liveness route p99 through it',
    profiles: profiles.map((profile) => profile.summary),
  };
  save(p);
  // Stopped now, so they take no part in the later phases' share of the cores.
  await Promise.all([edge.stop(), apiGateway.stop()]);
  p.edgeStack = null;
  for (const row of rows)
    log(`  ${row.side}: ${row.perSecond}/s, p50 ${row.p50} ms, p99 ${row.p99} ms (${row.errors} errors)`);
  log(
    `  webhook / liveness via edge: p50 ${String(webhookOverLiveness.p50)}, p99 ${String(webhookOverLiveness.p99)}; ` +
      `webhook via edge / straight: p50 ${String(webhookEdgeOverDirect.p50)}, p99 ${String(webhookEdgeOverDirect.p99)}`,
  );
};

/** 4. Pipeline overhead at a steady rate: webhook accepted to the fake Twilio's API, and by hop. */
const pipelinePhase = async (p: Pipeline): Promise<void> => {
  const { options } = p;
  log(`pipeline overhead: ${options.pipelineRate} msg/s for ${options.pipelineSeconds} s`);
  const pipeTexts = newTexts(Math.round(options.pipelineRate * options.pipelineSeconds));
  const pipeUsage = usageOf(p, {
    'sms-gateway': p.gateway.child.pid ?? 0,
    'ai-responder': p.responder.child.pid ?? 0,
    ...dataPids(),
  });
  const pipe = await p.load.run({
    mode: 'open',
    port: p.gateway.port,
    rate: options.pipelineRate,
    requests: signed(p.publicBaseUrl, pipeTexts),
  });
  await waitFor(p, pipeTexts, 60_000);
  const usage = pipeUsage.stop();
  const overheads: number[] = [];
  pipeTexts.forEach((text, i) => {
    const at = p.twilioAt.get(text.phone);
    const accepted = pipe.acceptedAt[i] ?? 0;
    if (at !== undefined && accepted > 0) overheads.push(at - accepted);
  });
  // Hops, from the BullMQ jobs of a sample of the texts.
  const hops = await pipelineHops(
    p.sql,
    p.inboundQueue,
    p.outboundQueue,
    pipeTexts.slice(0, 400),
    p.twilioAt,
  );
  p.results.pipeline = {
    rate: options.pipelineRate,
    texts: pipeTexts.length,
    replied: overheads.length,
    webhookP50: round(
      quantile(
        pipe.latencies.filter((l) => l >= 0),
        0.5,
      ),
      2,
    ),
    overheadP50: round(quantile(overheads, 0.5), 1),
    overheadP95: round(quantile(overheads, 0.95), 1),
    overheadP99: round(quantile(overheads, 0.99), 1),
    hops,
    usage,
    cpuMsPerText: cpuPerMessage(usage, overheads.length),
  };
  save(p);
  log(
    `  ${overheads.length}/${pipeTexts.length} replied; accepted -> Twilio p50 ${round(quantile(overheads, 0.5), 1)} ms, p95 ${round(quantile(overheads, 0.95), 1)} ms`,
  );
};

/** What one drain measured, before it is turned into rates and shares. */
interface Drained {
  texts: Text[];
  resumeAt: number;
  endWall: number;
  usage: Record<string, Usage>;
  profiles: Record<string, unknown>[];
  repliesWritten: number;
  statements: Awaited<ReturnType<typeof readStatements>> | null;
  /** Status callbacks the fake Twilio posted during the drain, and the sms.status jobs they made. */
  status: { callbacks: number; jobs: number };
}

/** 5. A backlog of texts queued while sms.inbound is paused, then drained by the given ai-responders. */
const drainBacklog = async (p: Pipeline, responders: Service[]): Promise<Drained> => {
  await p.inboundQueue.pause();
  const texts = newTexts(p.options.backlog);
  await p.load.run({
    mode: 'closed',
    port: p.gateway.port,
    concurrency: 16,
    durationMs: 600_000,
    requests: signed(p.publicBaseUrl, texts),
  });
  await Promise.all([p.gateway, ...responders].map((s) => s.ask({ profile: 'start' })));
  const sampling = usageOf(p, {
    'sms-gateway': p.gateway.child.pid ?? 0,
    ...Object.fromEntries(responders.map((r) => [r.name, r.child.pid ?? 0])),
    ...dataPids(),
  });
  const countingSince = await resetStatements(p.sql);
  const statusJobsBefore = await statusJobCount(p);
  const callbacksBefore = p.twilio.callbacks.length;
  const resumeAt = performance.timeOrigin + performance.now();
  await p.inboundQueue.resume();
  await waitFor(p, texts, 300_000);
  const endWall = performance.timeOrigin + performance.now();
  const usage = sampling.stop();
  const profiles = await Promise.all([p.gateway, ...responders].map((s) => s.ask({ profile: 'stop' })));
  // The last replies' status callbacks (the fake Twilio sends them 25 ms after each send).
  // Replies written meanwhile (on a loaded machine a few stragglers from before the backlog too):
  // what the CPU and the statements of the window are divided by.
  await sleep(1500);
  const {
    rows: [written],
  } = await p.sql.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM messages WHERE direction = 'outbound' AND created_at >= $1`,
    [new Date(resumeAt)],
  );
  const repliesWritten = Math.max(1, Number(written?.n ?? 0));
  const statements = countingSince ? await readStatements(p.sql, repliesWritten) : null;
  const status = {
    callbacks: p.twilio.callbacks.length - callbacksBefore,
    jobs: (await statusJobCount(p)) - statusJobsBefore,
  };
  return { texts, resumeAt, endWall, usage, profiles, repliesWritten, statements, status };
};

/** sms.status jobs added so far (all retained: far fewer than the queue's retention count). */
const statusJobCount = async (p: Pipeline): Promise<number> => {
  const counts = await p.queue('sms.status').getJobCounts();
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
};

/** 5. Largest sustained replies per second of one drain, and its CPU per reply. */
const drain = async (p: Pipeline, label: string, responders: Service[]) => {
  const d = await drainBacklog(p, responders);
  const times = d.texts
    .map((t) => p.twilioAt.get(t.phone))
    .filter((t): t is number => t !== undefined)
    .sort((a, b) => a - b);
  // Steady state: between the 10th and the 90th percentile of the replies.
  const lo = times[Math.floor(times.length * 0.1)] ?? d.resumeAt;
  const hi = times[Math.floor(times.length * 0.9)] ?? d.endWall;
  const steady =
    hi > lo ? ((Math.floor(times.length * 0.9) - Math.floor(times.length * 0.1)) / (hi - lo)) * 1000 : 0;
  const cpuMsPerReply = cpuPerMessage(d.usage, Math.max(times.length, d.repliesWritten));
  log(`  ${label}: ${round(steady)} replies/s steady (${times.length}/${d.texts.length} replied)`);
  log(`  status callbacks: ${d.status.callbacks} in ${d.status.jobs} sms.status jobs`);
  return {
    label,
    aiResponders: responders.length,
    backlog: d.texts.length,
    replied: times.length,
    repliesWritten: d.repliesWritten,
    repliesPerSecond: round(steady),
    overallPerSecond: round((times.length / ((times.at(-1) ?? d.endWall) - d.resumeAt)) * 1000),
    usage: d.usage,
    cpuMsPerReply,
    // What 2 cores would carry if the path had them to itself: 2,000 CPU-ms per second over the
    // CPU-ms one reply costs (services and Postgres; Redis and the bench client left out).
    projectedRepliesPerSecondOn2Cores: round(2000 / (cpuMsPerReply.total ?? 1)),
    profiles: d.profiles.map((profile) => profile.summary),
    statements: d.statements,
    statusCallbacks: d.status,
  };
};

/** 5. A backlog drained by one replica of each worker, then (unless --drain-only) by two ai-responders. */
const throughputPhase = async (p: Pipeline): Promise<void> => {
  log(`throughput: a backlog of ${p.options.backlog} texts drained by one replica of each worker`);
  const one = await drain(p, '1 ai-responder', [p.responder]);
  p.results.throughput = [one];
  save(p);
  if (!p.options.drainOnly) {
    log('starting a second ai-responder');
    await p.responder2.go();
    const two = await drain(p, '2 ai-responders', [p.responder, p.responder2]);
    p.results.throughput = [one, two];
  }
};

/**
 * 6. Status callbacks alone (--status-rate): the drained replies' callbacks posted again at a fixed
 * rate (each applies as 'unchanged', so the webhook, the queue and the batch read are what is
 * measured), until every sms.status job has run: sms-gateway's CPU per callback and its profile.
 */
const statusPhase = async (p: Pipeline, rate: number): Promise<void> => {
  const { rows } = await p.sql.query<{ sid: string }>(
    `SELECT provider_sid AS sid FROM messages WHERE direction = 'outbound' AND provider_sid IS NOT NULL`,
  );
  const total = Math.round(rate * p.options.statusSeconds);
  log(`status callbacks: ${total} at ${rate}/s for ${rows.length} replies`);
  // Each (sid, status) once: a commit that keys its jobs by them would otherwise add nothing.
  // 'read' would change a delivered reply: every other status applies as unchanged.
  const statuses = OUTBOUND_PROVIDER_STATUSES.filter((status) => status !== 'read');
  const requests = Array.from({ length: Math.min(total, rows.length * statuses.length) }, (_, i) => {
    const params = {
      MessageSid: rows[i % rows.length]?.sid ?? '',
      MessageStatus: statuses[Math.floor(i / rows.length)] ?? 'sent',
      AccountSid: ACCOUNT_SID,
    };
    return {
      path: STATUS_PATH,
      body: new URLSearchParams(params).toString(),
      signature: signTwilioWebhook(AUTH_TOKEN, `${p.publicBaseUrl}${STATUS_PATH}`, params),
    };
  });
  const queue = p.queue('sms.status');
  const jobsBefore = await statusJobCount(p);
  await p.gateway.ask({ profile: 'start' });
  const usage = usageOf(p, { 'sms-gateway': p.gateway.child.pid ?? 0 });
  const result = await p.load.run({ mode: 'open', port: p.gateway.port, rate, requests });
  for (;;) {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed');
    if ((counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0) === 0) break;
    await sleep(50);
  }
  const used = usage.stop();
  const profile = await p.gateway.ask({ profile: 'stop' });
  const summary = latencySummary(result);
  const jobs = (await statusJobCount(p)) - jobsBefore;
  const row = {
    rate,
    callbacks: summary.ok,
    errors: summary.errors,
    jobs,
    p50: summary.p50,
    p99: summary.p99,
    cpuMsPerCallback: {
      'sms-gateway': round((used['sms-gateway']?.cpuMs ?? 0) / Math.max(1, summary.ok), 3),
      postgres: round((used.postgres?.cpuMs ?? 0) / Math.max(1, summary.ok), 3),
    },
    profile: profile.summary,
  };
  log(
    `  ${summary.ok} answered (${summary.errors} errors), ${jobs} sms.status jobs; p50 ${summary.p50} ms, p99 ${summary.p99} ms; ` +
      `CPU-ms per callback: sms-gateway ${row.cpuMsPerCallback['sms-gateway']}, Postgres ${row.cpuMsPerCallback.postgres}`,
  );
  log(`  profile: ${JSON.stringify(profile.summary)}`);
  p.results.statusCallbacks = row;
  save(p);
};

/** The phases in order: the webhook alone (sms.inbound paused), then the whole path, then the drains. */
const runPhases = async (p: Pipeline): Promise<void> => {
  await warmUp(p);
  if (p.options.edgeOnly) {
    await edgePhase(p);
    await dropBacklog(p);
    return;
  }
  if (!p.options.drainOnly) {
    await webhookPhase(p);
    await webhookStepsPhase(p);
    await edgePhase(p);
    // Drop the webhook phases' backlog, then let the workers run.
    await dropBacklog(p);
    await p.inboundQueue.resume();
    await sleep(1000);
    await pipelinePhase(p);
  } else {
    // Webhooks of the warm-up still in flight on a loaded machine enqueue after a first drain.
    await dropBacklog(p);
    await sleep(3000);
    await dropBacklog(p);
    await p.inboundQueue.resume();
  }
  await throughputPhase(p);
  if (p.options.statusRate !== undefined) await statusPhase(p, p.options.statusRate);
};

export const main = async (argv: string[]): Promise<void> => {
  const options = parseOptions(argv);
  const started = performance.now();
  const load1 = os.loadavg()[0] ?? 0;
  const p = await setUp(options, started, load1);
  try {
    await runPhases(p);
  } finally {
    await shutDown(p);
  }
  const markdown = save(p);
  process.stdout.write(`\n${markdown}\n`);
  log(
    `wrote bench-results/pipeline.json and pipeline.md in ${round((performance.now() - started) / 1000)} s`,
  );
};
