// The Messages screen's conversation list (GET /api/admin/conversations) on the admin bench's data
// (tools/seed/bulk.ts: by default 1M users, 2M conversations, 10M messages): the first page, deep pages
// reached by cursor (keyset), and searches (first pages and pages deep in their matches), each
// polled by concurrent clients (HTTP, in load-worker.mjs's thread, so they do not share the
// gateway's event loop); then single requests of the costliest searches, for what a rare one costs.
// Seeds the database if it holds no complete seed of this size; writes bench-results/conversations.json.
//
// Options: --scale=<fraction of the full size, default 1> --db=<database, default the admin bench's:
// sprout_bench, or sprout_bench_<scale> for other sizes, so one seed serves both> --concurrency=<4>
// --requests=<200 per case> --only=<text: the cases whose name contains it, besides the floor>
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Client } from 'pg';
import { api } from '@sprout/contracts';
import { runMigrations } from '@sprout/domain';
import { type SeedState, databaseUrl as urlOf, readSeedState, seed, sizeFor } from '../seed/bulk';
import { startApiGateway } from './api-gateway';

const ROOT = path.resolve(__dirname, '../..');
const P95_TARGET_MS = 50;
const WARM_UP_REQUESTS = 50;

interface Options {
  scale: number;
  database: string;
  concurrency: number;
  requests: number;
  only: string | undefined;
}

const parseOptions = (argv: string[]): Options => {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)=(.*)$/.exec(arg);
    if (!match?.[1] || match[2] === undefined) throw new Error(`Unknown argument ${arg}`);
    flags.set(match[1], match[2]);
  }
  const number = (name: string, fallback: number): number => {
    const raw = flags.get(name);
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
    return value;
  };
  const scale = number('scale', 1);
  return {
    scale,
    database:
      flags.get('db') ?? (scale === 1 ? 'sprout_bench' : `sprout_bench_${String(scale).replace('.', '_')}`),
    concurrency: Math.round(number('concurrency', 4)),
    requests: Math.round(number('requests', 200)),
    only: flags.get('only'),
  };
};

const log = (message: string): void => console.log(`[bench:conversations] ${message}`);

interface RunResult {
  latencies: number[];
  errors: string[];
  wallMs: number;
}

/** load-worker.mjs (the admin bench's load generator) driven for HTTP jobs. */
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

  async run(concurrency: number, urls: string[]): Promise<RunResult> {
    const reply = await this.send({
      type: 'run',
      kind: 'http',
      concurrency,
      jobs: urls.map((url) => ({ url })),
    });
    if (typeof reply.fatal === 'string') throw new Error(reply.fatal);
    return reply as unknown as RunResult;
  }

  async close(): Promise<void> {
    await this.send({ type: 'close' });
    await this.worker.terminate();
  }
}

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;

const round = (ms: number): number => Math.round(ms * 10) / 10;

interface CaseResult {
  name: string;
  p50: number;
  p95: number;
  max: number;
  n: number;
  errors: number;
  firstError?: string;
  meetsTarget: boolean;
}

const LIST = '/api/admin/conversations?limit=20&showTestData=false';
const q = (search: string): string => `&search=${encodeURIComponent(search)}`;

type GetJson = (url: string) => Promise<{ conversations: unknown[]; pagination: Record<string, unknown> }>;
interface BenchCase {
  name: string;
  urls: string[];
}

/** The seeded database (seeded first when missing or of another size), migrated. */
async function prepareDatabase(
  options: Options,
  adminUrl: string,
): Promise<{ state: SeedState; databaseUrl: string; db: Client }> {
  const size = sizeFor(options.scale);
  let state = await readSeedState(adminUrl, options.database);
  if (state && state.size.conversations !== size.conversations) state = null;
  if (state === null) {
    log(
      `seeding ${options.database}: ${size.users} users, ${size.conversations} conversations, ${size.messages} messages`,
    );
    state = await seed({ adminUrl, database: options.database, size, log });
  } else {
    log(`reusing ${options.database} seeded ${state.seededAt.toISOString()} (${JSON.stringify(state.size)})`);
  }
  const databaseUrl = urlOf(adminUrl, options.database);
  const applied = await runMigrations(databaseUrl);
  const db = new Client({ connectionString: databaseUrl, application_name: 'sprout-bench-conversations' });
  await db.connect();
  if (applied.length > 0) {
    log(`migrated (${applied.join(', ')}): VACUUM (ANALYZE) conversations`);
    await db.query('VACUUM (ANALYZE) conversations');
  }
  return { state, databaseUrl, db };
}

/** The measured requests: browsing at every depth and searches of every kind. */
async function benchCases(db: Client, only: string | undefined): Promise<BenchCase[]> {
  // Cursors spread over the whole list: rows at random depths (a row's cursor starts the page after it).
  const cursorOf = "(extract(epoch FROM last_message_at) * 1000000)::bigint || '_' || id";
  const sampleCursors = async (where: string, count: number): Promise<string[]> => {
    const rows = await db.query<{ cursor: string }>(
      `SELECT ${cursorOf} AS cursor FROM conversations TABLESAMPLE SYSTEM (1) REPEATABLE (7)
        WHERE NOT is_test_user ${where} LIMIT ${count}`,
    );
    return rows.rows.map((r) => r.cursor);
  };
  const deep = await sampleCursors('', 100);
  const oldest = await db.query<{ cursor: string }>(
    `SELECT ${cursorOf} AS cursor FROM conversations WHERE NOT is_test_user
      ORDER BY last_message_at, id OFFSET 30 LIMIT 1`,
  );
  const deepSearch = await sampleCursors(`AND search_text LIKE '%tomatoes%'`, 100);

  const allCases: BenchCase[] = [
    // The floor: an authenticated request that reads nothing (routing, session check, loopback HTTP).
    { name: 'floor: auth-status (reads nothing)', urls: [api.auth.status.path] },
    { name: 'first page (browse)', urls: [`${LIST}&page=1`] },
    {
      name: 'deep pages by cursor (browse, random depths)',
      urls: deep.map((c) => `${LIST}&page=2&cursor=${c}`),
    },
    {
      name: 'last pages by cursor (browse)',
      urls: oldest.rows.map((r) => `${LIST}&page=2&cursor=${r.cursor}`),
    },
    { name: 'search, common word: tomatoes', urls: [`${LIST}${q('tomatoes')}`] },
    {
      name: 'search tomatoes, deep pages by cursor',
      urls: deepSearch.map((c) => `${LIST}${q('tomatoes')}&page=2&cursor=${c}`),
    },
    { name: 'search, two words: tomatoes alaska', urls: [`${LIST}${q('tomatoes alaska')}`] },
    {
      name: 'search, three words: blueberries garlic alaska',
      urls: [`${LIST}${q('blueberries garlic alaska')}`],
    },
    // Common words rare together: the word index (one posting list per word).
    { name: 'search, two words: garlic blueberries', urls: [`${LIST}${q('garlic blueberries')}`] },
    {
      name: 'search, four words: tomatoes garlic blueberries alaska',
      urls: [`${LIST}${q('tomatoes garlic blueberries alaska')}`],
    },
    { name: 'search, parts of words: blueber garl alask', urls: [`${LIST}${q('blueber garl alask')}`] },
    { name: 'search, no match: zucchini', urls: [`${LIST}${q('zucchini')}`] },
    { name: 'search, phone prefix: +1907', urls: [`${LIST}${q('+1907')}`] },
    { name: 'search, phone digits: 5550123', urls: [`${LIST}${q('5550123')}`] },
  ];
  return allCases.filter((c, i) => i === 0 || only === undefined || c.name.includes(only));
}

/** Each case warmed up, then `requests` requests from `concurrency` clients. */
async function measureCases(worker: LoadWorker, cases: BenchCase[], options: Options): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    const jobs = (n: number): string[] =>
      Array.from({ length: n }, (_, i) => c.urls[i % c.urls.length] ?? LIST);
    await worker.run(options.concurrency, jobs(WARM_UP_REQUESTS));
    const run = await worker.run(options.concurrency, jobs(options.requests));
    const sorted = [...run.latencies].sort((a, b) => a - b);
    const errors = run.errors.length;
    const result: CaseResult = {
      name: c.name,
      p50: round(quantile(sorted, 0.5)),
      p95: round(quantile(sorted, 0.95)),
      max: round(sorted.at(-1) ?? NaN),
      n: sorted.length,
      errors,
      ...(run.errors[0] ? { firstError: run.errors[0] } : {}),
      meetsTarget: errors === 0 && quantile(sorted, 0.95) < P95_TARGET_MS,
    };
    results.push(result);
    log(
      `${c.name}: p50 ${result.p50} ms, p95 ${result.p95} ms, max ${result.max} ms${errors ? `, ${errors} errors` : ''}`,
    );
  }
  return results;
}

/** What the answers say (totals, estimates) for the searches measured. */
async function readAnswers(getJson: GetJson): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const search of [
    'tomatoes',
    'tomatoes alaska',
    'blueberries garlic alaska',
    'garlic blueberries',
    'tomatoes garlic blueberries alaska',
    'blueber garl alask',
    '+1907',
    '5550123',
  ]) {
    const { pagination } = await getJson(`${LIST}${q(search)}`);
    answers[search] = { total: pagination.total, totalIsExact: pagination.totalIsExact };
  }
  answers.browse = (await getJson(LIST)).pagination;
  return answers;
}

/** Single requests of the costliest searches: words too short for the trigram index walk every conversation. */
async function timeCostliestSearches(getJson: GetJson): Promise<Array<{ name: string; ms: number }>> {
  const single: Array<{ name: string; ms: number }> = [];
  for (const [name, url] of [
    ['short word, no match: qz (walks every conversation)', `${LIST}${q('qz')}`],
    ['short word, common: ee', `${LIST}${q('ee')}`],
    ['phone digits, no match: 0000000', `${LIST}${q('0000000')}`],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      await getJson(url);
      times.push(performance.now() - started);
    }
    single.push({ name, ms: round(Math.min(...times)) });
    log(`${name}: best of 3 ${round(Math.min(...times))} ms`);
  }
  return single;
}

function writeReport(options: Options, report: Record<string, unknown>, loadAtStart: number[]): void {
  const dir = path.join(ROOT, 'bench-results');
  fs.mkdirSync(dir, { recursive: true });
  const file = options.only === undefined ? 'conversations.json' : 'conversations-partial.json';
  fs.writeFileSync(path.join(dir, file), `${JSON.stringify(report, null, 2)}\n`);
  log(
    `wrote bench-results/${file}; load average at start ${loadAtStart.join(' ')}, now ${os.loadavg().map(round).join(' ')}`,
  );
}

export const main = async (argv: string[]): Promise<void> => {
  const options = parseOptions(argv);
  const loadAtStart = os.loadavg().map(round);
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const { state, databaseUrl, db } = await prepareDatabase(options, adminUrl);
  const gateway = await startApiGateway({
    databaseUrl,
    redisUrl,
    bullmqPrefix: `bench-${randomBytes(4).toString('hex')}`,
  });
  let worker: LoadWorker | undefined;
  try {
    const { baseUrl, cookie } = gateway;
    const getJson: GetJson = async (url) => {
      const res = await fetch(`${baseUrl}${url}`, { headers: { cookie } });
      if (res.status !== 200) throw new Error(`${res.status} ${url}: ${await res.text()}`);
      return (await res.json()) as Awaited<ReturnType<GetJson>>;
    };
    const cases = await benchCases(db, options.only);
    worker = new LoadWorker({ baseUrl, cookie, databaseUrl, concurrency: options.concurrency });
    const results = await measureCases(worker, cases, options);
    const answers = await readAnswers(getJson);
    const single = await timeCostliestSearches(getJson);
    const report = {
      database: options.database,
      seededAt: state.seededAt.toISOString(),
      size: state.size,
      concurrency: options.concurrency,
      requestsPerCase: options.requests,
      machine: {
        cpus: os.cpus().length,
        loadAverageAtStart: loadAtStart,
        loadAverage: os.loadavg().map(round),
      },
      p95TargetMs: P95_TARGET_MS,
      results,
      answers,
      single,
    };
    writeReport(options, report, loadAtStart);
    if (results.some((r) => !r.meetsTarget)) process.exitCode = 1;
  } finally {
    await worker?.close();
    await gateway.close();
    await db.end();
  }
};
