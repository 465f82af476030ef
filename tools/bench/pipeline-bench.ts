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
// 3. the pipeline overhead at a steady arrival rate: webhook accepted -> the fake Twilio's API
//    receives the reply, p50 / p95, split by hop from the BullMQ jobs' timestamps;
// 4. the largest sustained replies per second: a backlog of texts (webhooks sent while
//    sms.inbound is paused) drained by one replica of each worker, then by two ai-responders,
//    with each service's CPU profile summarised by step (pipeline-profile.mjs) and its RSS / CPU.
// Writes bench-results/pipeline.json and bench-results/pipeline.md.
//
// Options: --quick (about 1.5 minutes), --rates=200,500,1000, --seconds=<per webhook round>,
// --rounds=<alternating rounds per rate>, --pipeline-rate=50, --backlog=<texts per drain>,
// --db=<sprout_bench_pipeline>, --drain-only (only step 4 with one ai-responder: CPU and SQL
// statements per reply, for before/after comparisons). When the server loads pg_stat_statements
// (shared_preload_libraries), each drain also counts the SQL statements per text.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { jobDefinitions } from '@sprout/contracts';
import { ALL_ENTITIES, ALL_MIGRATIONS, recordInbound, runMigrations } from '@sprout/domain';
import { findFreePort } from '@sprout/platform';
import { validateTwilioSignature } from '@sprout/sms';
import { FakeOpenAI, FakeTwilio, signTwilioWebhook } from '@sprout/testing';
import { BARE_TABLE_SQL } from './pipeline-bare';

const ROOT = path.resolve(__dirname, '../..');
const WEBHOOK_PATH = '/webhooks/twilio/sms';
const AUTH_TOKEN = 'bench-pipeline-auth-token';
const ACCOUNT_SID = `AC${'b'.repeat(32)}`;
const SENDER = '+15005550006';

interface Options {
  quick: boolean;
  rates: number[];
  seconds: number;
  rounds: number;
  pipelineRate: number;
  pipelineSeconds: number;
  backlog: number;
  closedSeconds: number;
  database: string;
  /** Only the drain by one ai-responder (CPU and statements per reply): before/after comparisons. */
  drainOnly: boolean;
}

const parseOptions = (argv: string[]): Options => {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match?.[1]) throw new Error(`Unknown argument ${arg}`);
    flags.set(match[1], match[2] ?? 'true');
  }
  const quick = flags.has('quick');
  const number = (name: string, fallback: number): number => {
    const raw = flags.get(name);
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
    return value;
  };
  const rates = (flags.get('rates') ?? '200,500,1000').split(',').map(Number);
  if (rates.some((r) => !Number.isFinite(r) || r <= 0)) throw new Error('--rates must be numbers');
  return {
    quick,
    rates,
    seconds: number('seconds', quick ? 3 : 8),
    rounds: number('rounds', quick ? 1 : 2),
    pipelineRate: number('pipeline-rate', 50),
    pipelineSeconds: number('pipeline-seconds', quick ? 6 : 20),
    backlog: number('backlog', quick ? 600 : 3000),
    closedSeconds: number('closed-seconds', quick ? 3 : 6),
    database: flags.get('db') ?? 'sprout_bench_pipeline',
    drainOnly: flags.has('drain-only'),
  };
};

const log = (message: string): void => {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};
const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const quantile = (values: number[], q: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
};
const mean = (values: number[]): number =>
  values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;

// ---------------------------------------------------------------------------------------------
// Processes: services, their CPU and RSS

interface Service {
  name: string;
  port: number;
  child: ChildProcess;
  ask(message: Record<string, unknown>): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

const startService = async (
  kind: 'sms-gateway' | 'ai-responder' | 'bare',
  name: string,
  env: Record<string, string>,
  deferred = false,
): Promise<Service & { go(): Promise<void> }> => {
  const port = env.PORT === undefined ? await findFreePort() : Number(env.PORT);
  const child = fork(path.join(__dirname, 'pipeline-service.mjs'), [kind], {
    env: { ...process.env, ...env, PORT: String(port), BENCH_DEFER_START: deferred ? '1' : '0' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const waiting = new Map<number, (value: Record<string, unknown>) => void>();
  let nextId = 1;
  child.on('message', (message: Record<string, unknown>) => {
    const resolve = waiting.get(message.id as number);
    if (resolve) {
      waiting.delete(message.id as number);
      resolve(message);
    }
  });
  const until = (what: 'ready' | 'loaded') =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} not ${what} in 240 s: ${stderr}`)), 240_000);
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited (${code}) while starting: ${stderr}`));
      };
      child.on('message', (message: Record<string, unknown>) => {
        if (message[what]) {
          clearTimeout(timer);
          child.off('exit', onExit);
          resolve();
        }
      });
      child.once('exit', onExit);
    });
  await until(deferred ? 'loaded' : 'ready');
  return {
    name,
    port,
    child,
    go: async () => {
      if (!deferred) return;
      const ready = until('ready');
      child.send({ go: true });
      await ready;
    },
    ask: (message) =>
      new Promise((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        child.send({ ...message, id });
      }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ stop: true });
      await Promise.race([exited, sleep(15_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
};

const CLOCK_TICKS = 100;
const procSample = (pid: number): { cpuMs: number; rssMb: number } | null => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { cpuMs, rssMb: rssKb / 1024 };
  } catch {
    return null;
  }
};

interface Usage {
  cpuPercent: number;
  cpuMs: number;
  rssMbPeak: number;
  rssMbEnd: number;
}

/** Postgres backends serving the benchmark's database (their title names it), by pid. */
let benchDatabase = '';
const postgresBackends = (): number[] => {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.startsWith('postgres') || cmdline.includes(': postgres ')) {
        if (cmdline.includes(` ${benchDatabase} `)) pids.push(Number(entry));
      }
    } catch {
      // gone meanwhile
    }
  }
  return pids;
};

/**
 * Samples the processes' CPU and RSS every 250 ms until stopped (CPU% of one core over the span),
 * plus "postgres": the sum over the backends of the benchmark's database (each counted from when
 * it was first seen) and "redis" (shared with anything else on this Redis).
 */
const sampleUsage = (processes: Record<string, number>) => {
  const first = new Map<string, { cpuMs: number; at: number }>();
  const peak = new Map<string, number>();
  const last = new Map<string, { cpuMs: number; rssMb: number; at: number }>();
  const backendFirst = new Map<number, number>();
  const backendLast = new Map<number, number>();
  const startedAt = performance.now();
  let ticks = 0;
  const take = () => {
    for (const [name, pid] of Object.entries(processes)) {
      const sample = procSample(pid);
      if (sample === null) continue;
      const at = performance.now();
      if (!first.has(name)) first.set(name, { cpuMs: sample.cpuMs, at });
      last.set(name, { ...sample, at });
      peak.set(name, Math.max(peak.get(name) ?? 0, sample.rssMb));
    }
    if (ticks++ % 4 === 0 || backendFirst.size === 0) {
      for (const pid of postgresBackends()) {
        const sample = procSample(pid);
        if (sample === null) continue;
        if (!backendFirst.has(pid)) backendFirst.set(pid, sample.cpuMs);
        backendLast.set(pid, sample.cpuMs);
      }
    } else {
      for (const pid of backendFirst.keys()) {
        const sample = procSample(pid);
        if (sample !== null) backendLast.set(pid, sample.cpuMs);
      }
    }
  };
  take();
  const timer = setInterval(take, 250);
  return {
    stop: (): Record<string, Usage> => {
      clearInterval(timer);
      take();
      const usage: Record<string, Usage> = {};
      for (const [name, start] of first) {
        const end = last.get(name);
        if (!end) continue;
        const wall = end.at - start.at;
        const cpuMs = end.cpuMs - start.cpuMs;
        usage[name] = {
          cpuPercent: wall > 0 ? round((cpuMs / wall) * 100) : 0,
          cpuMs: round(cpuMs),
          rssMbPeak: round(peak.get(name) ?? 0),
          rssMbEnd: round(end.rssMb),
        };
      }
      let pgMs = 0;
      for (const [pid, start] of backendFirst) pgMs += (backendLast.get(pid) ?? start) - start;
      const wall = performance.now() - startedAt;
      usage.postgres = {
        cpuPercent: round((pgMs / wall) * 100),
        cpuMs: round(pgMs),
        rssMbPeak: 0,
        rssMbEnd: 0,
      };
      return usage;
    },
  };
};

/** Redis's pid, to sample beside the services (it serves others too). */
const dataPids = (): Record<string, number> => {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'redis-server')
        return { redis: Number(entry) };
    } catch {
      // gone meanwhile
    }
  }
  return {};
};

/** CPU milliseconds per message of each process: what one message costs whatever else runs. */
const cpuPerMessage = (usage: Record<string, Usage>, messages: number): Record<string, number> => {
  const out: Record<string, number> = {};
  let total = 0;
  for (const [name, u] of Object.entries(usage)) {
    if (name === 'redis') continue;
    out[name] = round(u.cpuMs / Math.max(1, messages), 2);
    total += u.cpuMs;
  }
  out.total = round(total / Math.max(1, messages), 2);
  return out;
};

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

let phoneCounter = 0;
let sidCounter = 0;
interface Text {
  phone: string;
  sid: string;
  body: string;
}
const newTexts = (n: number): Text[] =>
  Array.from({ length: n }, () => {
    phoneCounter += 1;
    sidCounter += 1;
    const body = [
      'When should I plant garlic in zone 7?',
      'My tomato leaves are curling, what is wrong?',
      'How often should I water basil?',
      'Can I grow peas in the fall?',
    ][sidCounter % 4] as string;
    return {
      phone: `+1555${String(phoneCounter).padStart(7, '0')}`,
      sid: `SM${sidCounter.toString(16).padStart(32, '0')}`,
      body,
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
// Main

export const main = async (argv: string[]): Promise<void> => {
  const options = parseOptions(argv);
  const started = performance.now();
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const url = new URL(adminUrl);
  url.pathname = `/${options.database}`;
  const databaseUrl = url.toString();
  benchDatabase = options.database;
  const prefix = `bench-pipeline-${randomBytes(4).toString('hex')}`;
  const load1 = os.loadavg()[0] ?? 0;

  log(`private database ${options.database}, Redis prefix ${prefix}${options.quick ? ' (quick)' : ''}`);
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${options.database}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${options.database}"`);
  await admin.end();
  await runMigrations(databaseUrl);
  const sql = new Client({ connectionString: databaseUrl, application_name: 'bench-pipeline' });
  await sql.connect();
  await sql.query(BARE_TABLE_SQL);

  const twilio = await FakeTwilio.start({
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    callbackDelayMs: 25,
  });
  const openai = await FakeOpenAI.start();
  // When each reply reached the Twilio API (epoch ms), by recipient.
  const twilioAt = new Map<string, number>();
  const push = twilio.sent.push.bind(twilio.sent);
  twilio.sent.push = (...items) => {
    const at = performance.timeOrigin + performance.now();
    for (const item of items) if (!twilioAt.has(item.to)) twilioAt.set(item.to, at);
    return push(...items);
  };

  const gatewayPort = await findFreePort();
  const publicBaseUrl = `http://127.0.0.1:${gatewayPort}`;
  const common: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    BULLMQ_PREFIX: prefix,
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    TWILIO_PHONE_NUMBER: SENDER,
    TWILIO_API_BASE_URL: twilio.url,
    PUBLIC_BASE_URL: publicBaseUrl,
    // The benchmark measures the path, not carrier pacing: the sender may send as fast as it can.
    SMS_SEND_RATE_PER_SECOND: '1000',
    SMS_SENDER_RATES: `${SENDER}=10000`,
    SESSION_SECRET: 'bench-pipeline-session-secret-0123456789',
    ADMIN_PASSWORD: 'bench-pipeline-password',
  };
  const responderEnv = {
    ...common,
    OPENAI_API_KEY: openai.apiKey,
    OPENAI_BASE_URL: openai.baseURL,
  };

  const queue = (name: string) =>
    new Queue(name, { prefix, connection: { url: redisUrl, maxRetriesPerRequest: null } });
  const inboundQueue = queue('sms.inbound');
  const outboundQueue = queue('sms.outbound');
  /**
   * Drops the texts queued so far, on purpose: their jobs and their awaiting_replies rows (else
   * the inbound sweep would answer them during the next phase).
   */
  const dropBacklog = async (): Promise<void> => {
    await inboundQueue.drain(true);
    await sql.query('DELETE FROM awaiting_replies');
  };

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
  const services: Service[] = [gateway, responder, bare, responder2];
  const load = startLoad();
  const results: Record<string, unknown> = {};

  try {
    // Warm-up: JIT, pools, the first user and conversation statements.
    await inboundQueue.pause();
    for (const target of [gateway, bare]) {
      await load.run({
        mode: 'open',
        port: target.port,
        rate: 100,
        requests: signed(publicBaseUrl, newTexts(300)),
      });
    }

    const waitFor = async (texts: Text[], timeoutMs: number): Promise<void> => {
      const deadline = performance.now() + timeoutMs;
      while (performance.now() < deadline) {
        if (texts.every((t) => twilioAt.has(t.phone))) return;
        await sleep(50);
      }
    };
    if (!options.drainOnly) {
      // 1a. Throughput, closed loop, first: later open-loop runs past capacity leave work in flight.
      const closed: Record<string, unknown> = {};
      for (const [side, target] of [
        ['sprout', gateway],
        ['bare', bare],
      ] as const) {
        const requests = signed(publicBaseUrl, newTexts(Math.round(3000 * options.closedSeconds)));
        const usage = sampleUsage({ service: target.child.pid ?? 0 });
        const result = await load.run({
          mode: 'closed',
          port: target.port,
          concurrency: 32,
          durationMs: options.closedSeconds * 1000,
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
      // 1. Webhook at fixed arrival rates, alternating with the bare handler.
      log(
        `webhook: ${options.rates.join(', ')} req/s, ${options.rounds} round(s) of ${options.seconds} s each side`,
      );
      const webhookUsage = sampleUsage({ 'sms-gateway': gateway.child.pid ?? 0, bare: bare.child.pid ?? 0 });
      const webhook: Record<string, unknown>[] = [];
      for (const rate of options.rates) {
        const runs: Record<'sprout' | 'bare', LoadResult[]> = { sprout: [], bare: [] };
        const cpu = { sprout: { service: 0, postgres: 0 }, bare: { service: 0, postgres: 0 } };
        for (let r = 0; r < options.rounds; r += 1) {
          for (const [side, target] of [
            ['sprout', gateway],
            ['bare', bare],
          ] as const) {
            const requests = signed(publicBaseUrl, newTexts(Math.round(rate * options.seconds)));
            const usage = sampleUsage({ service: target.child.pid ?? 0 });
            runs[side].push(await load.run({ mode: 'open', port: target.port, rate, requests }));
            const used = usage.stop();
            cpu[side].service += used.service?.cpuMs ?? 0;
            cpu[side].postgres += used.postgres?.cpuMs ?? 0;
            // Let anything a timed-out run left in flight finish before the other side runs.
            await sleep(runs[side].at(-1)?.timedOut ? 10_000 : 500);
          }
        }
        const merge = (list: LoadResult[]): LoadResult => ({
          latencies: list.flatMap((l) => l.latencies),
          acceptedAt: [],
          errors: list.flatMap((l) => l.errors),
          wallMs: list.reduce((s, l) => s + l.wallMs, 0),
          sent: list.reduce((s, l) => s + l.sent, 0),
        });
        const ratio = (a: number, b: number) =>
          Number.isFinite(a) && Number.isFinite(b) ? round(a / b, 2) : null;
        const sprout = latencySummary(merge(runs.sprout));
        const baseline = latencySummary(merge(runs.bare));
        const row = {
          rate,
          sprout,
          bare: baseline,
          ratioP50: ratio(sprout.p50, baseline.p50),
          ratioP99: ratio(sprout.p99, baseline.p99),
          ratioP999: ratio(sprout.p999, baseline.p999),
          // CPU-ms per answered request: the service's process and Postgres's backends.
          cpuMsPerRequest: {
            sprout: {
              service: round(cpu.sprout.service / Math.max(1, sprout.ok), 2),
              postgres: round(cpu.sprout.postgres / Math.max(1, sprout.ok), 2),
            },
            bare: {
              service: round(cpu.bare.service / Math.max(1, baseline.ok), 2),
              postgres: round(cpu.bare.postgres / Math.max(1, baseline.ok), 2),
            },
          },
        };
        webhook.push(row);
        log(
          `  ${rate}/s: sprout p50 ${sprout.p50} p99 ${sprout.p99} p99.9 ${sprout.p999} ms (${sprout.achievedPerSecond}/s, ${sprout.errors} errors, ${sprout.timedOut} timed out); ` +
            `bare p50 ${baseline.p50} p99 ${baseline.p99} p99.9 ${baseline.p999} ms; ratio p99 ${row.ratioP99}`,
        );
      }
      results.webhook = { rates: webhook, closedLoop: closed, usage: webhookUsage.stop() };
      writeReport(options, results, started, load1);

      // 2. The webhook's steps, one at a time (this process, its own pool of 10).
      log('webhook steps, timed one by one');
      const ds = new DataSource({
        type: 'postgres',
        url: databaseUrl,
        entities: ALL_ENTITIES,
        migrations: ALL_MIGRATIONS,
        extra: { max: 10 },
      });
      await ds.initialize();
      const steps: Record<string, number[]> = {
        signature: [],
        'message writer (transaction)': [],
        enqueue: [],
      };
      const stepTexts = newTexts(options.quick ? 200 : 500);
      const stepRequests = signed(publicBaseUrl, stepTexts);
      for (let i = 0; i < stepTexts.length; i += 1) {
        const text = stepTexts[i] as Text;
        const request = stepRequests[i] as { body: string; signature: string };
        let at = performance.now();
        const params = Object.fromEntries(new URLSearchParams(request.body));
        if (
          !validateTwilioSignature({
            authToken: AUTH_TOKEN,
            url: `${publicBaseUrl}${WEBHOOK_PATH}`,
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
        await inboundQueue.add(
          'sms.inbound',
          { messageId: record?.messageId },
          { jobId: `inbound-${record?.messageId}` },
        );
        steps.enqueue?.push(performance.now() - at);
      }
      await ds.destroy();
      // The whole webhook at a rate far below capacity (5 req/s): no queueing, so p50 minus the
      // steps is what HTTP, routing, form parsing and validation and the TwiML cost.
      const unhurried = await load.run({
        mode: 'open',
        port: gateway.port,
        rate: 5,
        requests: signed(publicBaseUrl, newTexts(options.quick ? 25 : 60)),
      });
      const webhookAt200 = round(
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
      results.webhookSteps = {
        steps: stepRows,
        webhookP50At5PerSecond: webhookAt200,
        restP50: round(webhookAt200 - stepSum, 2),
        note: 'rest = the webhook p50 at 5 req/s minus the steps: HTTP, Fastify/Nest routing, form parsing and validation, TwiML',
      };
      log(
        `  ${stepRows.map((r) => `${r.step} ${r.p50} ms`).join(', ')}; rest ${round(webhookAt200 - stepSum, 2)} ms`,
      );

      // Drop the webhook phases' backlog, then let the workers run.
      await dropBacklog();
      await inboundQueue.resume();
      await sleep(1000);

      // 3. Pipeline overhead at a steady rate.
      log(`pipeline overhead: ${options.pipelineRate} msg/s for ${options.pipelineSeconds} s`);
      const pipeTexts = newTexts(Math.round(options.pipelineRate * options.pipelineSeconds));
      const pipeUsage = sampleUsage({
        'sms-gateway': gateway.child.pid ?? 0,
        'ai-responder': responder.child.pid ?? 0,
        ...dataPids(),
      });
      const pipe = await load.run({
        mode: 'open',
        port: gateway.port,
        rate: options.pipelineRate,
        requests: signed(publicBaseUrl, pipeTexts),
      });
      await waitFor(pipeTexts, 60_000);
      const pipeUsageResult = pipeUsage.stop();
      const overheads: number[] = [];
      pipeTexts.forEach((text, i) => {
        const at = twilioAt.get(text.phone);
        const accepted = pipe.acceptedAt[i] ?? 0;
        if (at !== undefined && accepted > 0) overheads.push(at - accepted);
      });
      // Hops, from the BullMQ jobs of a sample of the texts.
      const hops = await pipelineHops(sql, inboundQueue, outboundQueue, pipeTexts.slice(0, 400), twilioAt);
      results.pipeline = {
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
        usage: pipeUsageResult,
        cpuMsPerText: cpuPerMessage(pipeUsageResult, overheads.length),
      };
      writeReport(options, results, started, load1);
      log(
        `  ${overheads.length}/${pipeTexts.length} replied; accepted -> Twilio p50 ${round(quantile(overheads, 0.5), 1)} ms, p95 ${round(quantile(overheads, 0.95), 1)} ms`,
      );
    } else {
      // Webhooks of the warm-up still in flight on a loaded machine enqueue after a first drain.
      await dropBacklog();
      await sleep(3000);
      await dropBacklog();
      await inboundQueue.resume();
    }

    // 4. Largest sustained replies per second: a backlog drained by 1, then 2 ai-responders.
    const drain = async (label: string, responders: Service[]) => {
      await inboundQueue.pause();
      const texts = newTexts(options.backlog);
      await load.run({
        mode: 'closed',
        port: gateway.port,
        concurrency: 16,
        durationMs: 600_000,
        requests: signed(publicBaseUrl, texts),
      });
      await Promise.all([gateway, ...responders].map((s) => s.ask({ profile: 'start' })));
      const usage = sampleUsage({
        'sms-gateway': gateway.child.pid ?? 0,
        ...Object.fromEntries(responders.map((r) => [r.name, r.child.pid ?? 0])),
        ...dataPids(),
      });
      const countingSince = await resetStatements(sql);
      const resumeAt = performance.timeOrigin + performance.now();
      await inboundQueue.resume();
      await waitFor(texts, 300_000);
      const endWall = performance.timeOrigin + performance.now();
      const usageResult = usage.stop();
      const profiles = await Promise.all([gateway, ...responders].map((s) => s.ask({ profile: 'stop' })));
      // The last replies' status callbacks (the fake Twilio sends them 25 ms after each send).
      // Replies written meanwhile (on a loaded machine a few stragglers from before the backlog too):
      // what the CPU and the statements of the window are divided by.
      await sleep(1500);
      const {
        rows: [written],
      } = await sql.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM messages WHERE direction = 'outbound' AND created_at >= $1`,
        [new Date(resumeAt)],
      );
      const repliesWritten = Math.max(1, Number(written?.n ?? 0));
      const statements = countingSince ? await readStatements(sql, repliesWritten) : null;
      const times = texts
        .map((t) => twilioAt.get(t.phone))
        .filter((t): t is number => t !== undefined)
        .sort((a, b) => a - b);
      // Steady state: between the 10th and the 90th percentile of the replies.
      const lo = times[Math.floor(times.length * 0.1)] ?? resumeAt;
      const hi = times[Math.floor(times.length * 0.9)] ?? endWall;
      const steady =
        hi > lo ? ((Math.floor(times.length * 0.9) - Math.floor(times.length * 0.1)) / (hi - lo)) * 1000 : 0;
      const result = {
        label,
        aiResponders: responders.length,
        backlog: texts.length,
        replied: times.length,
        repliesWritten,
        repliesPerSecond: round(steady),
        overallPerSecond: round((times.length / ((times.at(-1) ?? endWall) - resumeAt)) * 1000),
        usage: usageResult,
        cpuMsPerReply: cpuPerMessage(usageResult, Math.max(times.length, repliesWritten)),
        // What 2 cores would carry if the path had them to itself: 2,000 CPU-ms per second over the
        // CPU-ms one reply costs (services and Postgres; Redis and the bench client left out).
        projectedRepliesPerSecondOn2Cores: round(
          2000 / (cpuPerMessage(usageResult, Math.max(times.length, repliesWritten)).total ?? 1),
        ),
        profiles: profiles.map((p) => p.summary),
        statements,
      };
      log(`  ${label}: ${round(steady)} replies/s steady (${times.length}/${texts.length} replied)`);
      return result;
    };
    log(`throughput: a backlog of ${options.backlog} texts drained by one replica of each worker`);
    const one = await drain('1 ai-responder', [responder]);
    results.throughput = [one];
    writeReport(options, results, started, load1);
    if (!options.drainOnly) {
      log('starting a second ai-responder');
      await responder2.go();
      const two = await drain('2 ai-responders', [responder, responder2]);
      results.throughput = [one, two];
    }
  } finally {
    await load.close();
    for (const service of services) await service.stop();
    // The private prefix goes with the run: every queue's jobs and retained results.
    for (const name of [...Object.keys(jobDefinitions), 'bench.bare']) {
      const each = queue(name);
      await each.obliterate({ force: true }).catch(() => undefined);
      await each.close();
    }
    await inboundQueue.close();
    await outboundQueue.close();
    await twilio.close();
    await openai.close();
    await sql.end();
  }

  const markdown = writeReport(options, results, started, load1);
  process.stdout.write(`\n${markdown}\n`);
  log(
    `wrote bench-results/pipeline.json and pipeline.md in ${round((performance.now() - started) / 1000)} s`,
  );
};

/** Writes what has been measured so far (a run stopped midway still leaves its figures). */
const writeReport = (
  options: Options,
  results: Record<string, unknown>,
  started: number,
  load1: number,
): string => {
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: round(os.totalmem() / 2 ** 30),
    loadAverage1mAtStart: round(load1, 2),
    loadAverage1mAtEnd: round(os.loadavg()[0] ?? 0, 2),
    node: process.version,
    date: new Date().toISOString(),
  };
  const report = { options, machine, ...results, seconds: round((performance.now() - started) / 1000) };
  const dir = path.join(ROOT, 'bench-results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'pipeline.json'), `${JSON.stringify(report, null, 2)}\n`);
  const markdown = renderMarkdown(report);
  fs.writeFileSync(path.join(dir, 'pipeline.md'), markdown);
  return markdown;
};

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
// Markdown

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return, @typescript-eslint/restrict-template-expressions -- the report is the plain JSON written above, read back to render it */
const table = (header: string[], rows: (string | number)[][]): string =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

const ms = (value: number | null): string =>
  value === null || !Number.isFinite(value) ? 'timed out' : `${value} ms`;

const renderMarkdown = (report: any): string => {
  const out: string[] = [];
  const m = report.machine;
  out.push(
    `# Pipeline benchmark (${report.options.drainOnly ? 'drain only' : report.options.quick ? 'quick' : 'full'})`,
  );
  out.push('');
  out.push(
    `${m.date.slice(0, 16).replace('T', ' ')} UTC, ${m.cpus} cores (${m.cpuModel}), ${m.memoryGb} GB, Node ${m.node}; ` +
      `load average ${m.loadAverage1mAtStart} at start, ${m.loadAverage1mAtEnd} at end (the bench client, Postgres, Redis, ` +
      'the services and any other work share these cores). Fake Twilio, fake OpenAI answering at once.',
  );
  // Each part is rendered when the run measured it (--drain-only measures the drain alone).
  if (report.webhook) {
    out.push('');
    out.push('## Inbound webhook (open loop; latency from the scheduled send time)');
    out.push('');
    out.push(
      table(
        [
          'rate (req/s)',
          'Sprout p50',
          'p99',
          'p99.9',
          'answered/s',
          'timed out',
          'bare p50',
          'bare p99',
          'bare p99.9',
          'bare answered/s',
          'ratio p50',
          'ratio p99',
          'ratio p99.9',
        ],
        report.webhook.rates.map((r: any) => [
          r.rate,
          ms(r.sprout.p50),
          ms(r.sprout.p99),
          ms(r.sprout.p999),
          r.sprout.achievedPerSecond,
          `${r.sprout.timedOut}/${r.sprout.n}`,
          ms(r.bare.p50),
          ms(r.bare.p99),
          ms(r.bare.p999),
          r.bare.achievedPerSecond,
          r.ratioP50 ?? '-',
          r.ratioP99 ?? '-',
          r.ratioP999 ?? '-',
        ]),
      ),
    );
    out.push('');
    out.push(
      table(
        [
          'rate',
          'Sprout CPU-ms/request (sms-gateway + Postgres)',
          'bare CPU-ms/request (handler + Postgres)',
          'ratio',
        ],
        report.webhook.rates.map((r: any) => {
          const a = r.cpuMsPerRequest.sprout;
          const b = r.cpuMsPerRequest.bare;
          return [
            r.rate,
            `${a.service} + ${a.postgres}`,
            `${b.service} + ${b.postgres}`,
            round((a.service + a.postgres) / (b.service + b.postgres), 2),
          ];
        }),
      ),
    );
    const c = report.webhook.closedLoop;
    out.push('');
    out.push(
      `Closed loop, 32 clients: Sprout ${c.sprout.perSecond} req/s (p50 ${c.sprout.p50} ms), bare ${c.bare.perSecond} req/s (p50 ${c.bare.p50} ms): **throughput ratio ${c.throughputRatio}**. ` +
        `CPU-ms per request: Sprout ${c.sprout.cpuMsPerRequest?.total} (sms-gateway ${c.sprout.cpuMsPerRequest?.service}, Postgres ${c.sprout.cpuMsPerRequest?.postgres}), bare ${c.bare.cpuMsPerRequest?.total} (handler ${c.bare.cpuMsPerRequest?.service}, Postgres ${c.bare.cpuMsPerRequest?.postgres}).`,
    );
    out.push('');
    const w = report.webhook.usage;
    out.push(
      `Webhook phase usage: ${Object.entries(w)
        .map(([name, u]: [string, any]) => `${name} ${u.cpuPercent}% CPU, RSS peak ${u.rssMbPeak} MB`)
        .join('; ')}.`,
    );
    out.push('');
    if (report.webhookSteps) {
      out.push(
        'Webhook steps timed one by one (p50): ' +
          report.webhookSteps.steps.map((s: any) => `${s.step} ${s.p50} ms`).join(', ') +
          `; the webhook's p50 at 5 req/s ${report.webhookSteps.webhookP50At5PerSecond} ms, so the rest (HTTP, routing, form parsing and validation, TwiML) ${report.webhookSteps.restP50} ms.`,
      );
      out.push('');
    }
  }
  if (report.pipeline) {
    const p = report.pipeline;
    out.push(`## Pipeline overhead at ${p.rate} msg/s (webhook accepted -> Twilio API call)`);
    out.push('');
    out.push(
      `${p.replied}/${p.texts} replied: **p50 ${p.overheadP50} ms, p95 ${p.overheadP95} ms** (p99 ${p.overheadP99} ms); webhook p50 ${p.webhookP50} ms.`,
    );
    out.push('');
    out.push(
      table(
        ['hop', 'n', 'p50', 'mean', 'share of mean'],
        p.hops.map((h: any) => [h.hop, h.n, `${h.p50} ms`, `${h.mean} ms`, `${h.share}%`]),
      ),
    );
    out.push('');
    out.push(
      `CPU-ms per text: ${Object.entries(p.cpuMsPerText)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}.`,
    );
    out.push('');
    out.push(
      table(
        ['process', 'CPU (% of one core)', 'RSS peak'],
        Object.entries(p.usage).map(([name, u]: [string, any]) => [
          name,
          u.cpuPercent,
          u.rssMbPeak ? `${u.rssMbPeak} MB` : '',
        ]),
      ),
    );
    out.push('');
  }
  if (report.throughput) {
    out.push('');
    out.push('## Largest sustained replies per second (backlog drained)');
    out.push('');
    out.push(
      table(
        [
          'workers',
          'backlog',
          'replied',
          'replies/s (steady)',
          'replies/s (overall)',
          'CPU-ms per reply (all processes)',
          'projected replies/s on 2 dedicated cores',
        ],
        report.throughput.map((t: any) => [
          t.label + ' + 1 sms-gateway',
          t.backlog,
          t.replied,
          t.repliesPerSecond,
          t.overallPerSecond,
          t.cpuMsPerReply.total,
          t.projectedRepliesPerSecondOn2Cores,
        ]),
      ),
    );
    for (const t of report.throughput) {
      out.push('');
      out.push(`### ${t.label}: CPU and memory while draining`);
      out.push('');
      out.push(
        table(
          ['process', 'CPU (% of one core)', 'CPU-ms per reply', 'RSS peak', 'RSS end'],
          Object.entries(t.usage).map(([name, u]: [string, any]) => [
            name,
            u.cpuPercent,
            t.cpuMsPerReply[name] ?? '(shared)',
            u.rssMbPeak ? `${u.rssMbPeak} MB` : '',
            u.rssMbEnd ? `${u.rssMbEnd} MB` : '',
          ]),
        ),
      );
      if (t.statements) {
        out.push('');
        out.push(
          `SQL statements per text while draining (pg_stat_statements, top level): **${t.statements.perText}**, ` +
            `${t.statements.execMsPerText} ms executing. Most frequent:`,
        );
        out.push('');
        out.push(
          table(
            ['per text', 'ms per text', 'statement'],
            t.statements.top
              .filter((r: any) => r.perText >= 0.05)
              .map((r: any) => [
                r.perText,
                r.execMsPerText,
                `\`${r.query.slice(0, 120).replace(/\|/g, '\\|')}\``,
              ]),
          ),
        );
      }
      for (const profile of t.profiles) {
        out.push('');
        out.push(
          `Where ${profile.service}'s CPU went (${profile.busyMs} ms busy, CPU profile, innermost step): ` +
            profile.steps
              .filter((s: any) => s.share >= 1)
              .map((s: any) => `${s.step} ${s.share}%`)
              .join(', ') +
            '.',
        );
      }
    }
    out.push('');
  }
  return out.join('\n');
};
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return, @typescript-eslint/restrict-template-expressions */
