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
import os from 'node:os';
import { Client } from 'pg';
import { type ConversationListResponse, api, endpointUrl } from '@sprout/contracts';
import { seedDatabaseName, seededDatabase, sizeFor } from '../seed/bulk';
import { UNASSIGNED_AREA_CODES } from '../seed/phones';
import { startApiGateway } from './api-gateway';
import { benchServers, log, readFlags, removeRunKeys, round, summarize, writeResult } from './harness';
import { LoadWorker, repeat } from './load-client';

const P95_TARGET_MS = 50;
/** The last area code of the bulk seed (a twentieth of its users, those in Alaska), as a search. */
const AREA_PREFIX = `+1${UNASSIGNED_AREA_CODES.at(-1) ?? ''}`;
const WARM_UP_REQUESTS = 50;

const parseOptions = (argv: string[]) => {
  const flags = readFlags(argv);
  const scale = flags.positive('scale', 1);
  return {
    scale,
    database: flags.text('db') ?? seedDatabaseName(scale),
    concurrency: Math.round(flags.positive('concurrency', 4)),
    requests: Math.round(flags.positive('requests', 200)),
    only: flags.text('only'),
  };
};

type Options = ReturnType<typeof parseOptions>;

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

interface ListQuery {
  page?: number;
  search?: string;
  cursor?: string;
}

/** The Messages screen's list as the console asks for it: 20 real users' conversations a page. */
const listQuery = (query: ListQuery = {}) => ({ limit: 20, showTestData: false, ...query });
const list = (query?: ListQuery): string => endpointUrl(api.messages.list, { query: listQuery(query) });

/** The list's answer, asked once by the bench itself. */
type Ask = (query?: ListQuery) => Promise<ConversationListResponse>;

interface BenchCase {
  name: string;
  urls: string[];
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
    { name: 'first page (browse)', urls: [list({ page: 1 })] },
    {
      name: 'deep pages by cursor (browse, random depths)',
      urls: deep.map((cursor) => list({ page: 2, cursor })),
    },
    {
      name: 'last pages by cursor (browse)',
      urls: oldest.rows.map((r) => list({ page: 2, cursor: r.cursor })),
    },
    { name: 'search, common word: tomatoes', urls: [list({ search: 'tomatoes' })] },
    {
      name: 'search tomatoes, deep pages by cursor',
      urls: deepSearch.map((cursor) => list({ search: 'tomatoes', page: 2, cursor })),
    },
    { name: 'search, two words: tomatoes alaska', urls: [list({ search: 'tomatoes alaska' })] },
    {
      name: 'search, three words: blueberries garlic alaska',
      urls: [list({ search: 'blueberries garlic alaska' })],
    },
    // Common words rare together: the word index (one posting list per word).
    { name: 'search, two words: garlic blueberries', urls: [list({ search: 'garlic blueberries' })] },
    {
      name: 'search, four words: tomatoes garlic blueberries alaska',
      urls: [list({ search: 'tomatoes garlic blueberries alaska' })],
    },
    { name: 'search, parts of words: blueber garl alask', urls: [list({ search: 'blueber garl alask' })] },
    { name: 'search, no match: zucchini', urls: [list({ search: 'zucchini' })] },
    { name: `search, phone prefix: ${AREA_PREFIX}`, urls: [list({ search: AREA_PREFIX })] },
    { name: 'search, phone digits: 5550123', urls: [list({ search: '5550123' })] },
  ];
  return allCases.filter((c, i) => i === 0 || only === undefined || c.name.includes(only));
}

/** Each case warmed up, then `requests` requests from `concurrency` clients. */
async function measureCases(worker: LoadWorker, cases: BenchCase[], options: Options): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    await worker.http(options.concurrency, repeat(WARM_UP_REQUESTS, c.urls));
    const run = await worker.http(options.concurrency, repeat(options.requests, c.urls));
    const errors = run.errors.length;
    const result: CaseResult = {
      name: c.name,
      ...summarize(run.latencies, 1),
      errors,
      ...(run.errors[0] ? { firstError: run.errors[0] } : {}),
      meetsTarget: errors === 0 && summarize(run.latencies).p95 < P95_TARGET_MS,
    };
    results.push(result);
    log(
      `${c.name}: p50 ${result.p50} ms, p95 ${result.p95} ms, max ${result.max} ms${errors ? `, ${errors} errors` : ''}`,
    );
  }
  return results;
}

/** What the answers say (totals, estimates) for the searches measured. */
async function readAnswers(ask: Ask): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const search of [
    'tomatoes',
    'tomatoes alaska',
    'blueberries garlic alaska',
    'garlic blueberries',
    'tomatoes garlic blueberries alaska',
    'blueber garl alask',
    AREA_PREFIX,
    '5550123',
  ]) {
    const { pagination } = await ask({ search });
    answers[search] = { total: pagination.total, totalIsExact: pagination.totalIsExact };
  }
  answers.browse = (await ask()).pagination;
  return answers;
}

/** Single requests of the costliest searches: words too short for the trigram index walk every conversation. */
async function timeCostliestSearches(ask: Ask): Promise<Array<{ name: string; ms: number }>> {
  const single: Array<{ name: string; ms: number }> = [];
  for (const [name, search] of [
    ['short word, no match: qz (walks every conversation)', 'qz'],
    ['short word, common: ee', 'ee'],
    ['phone digits, no match: 0000000', '0000000'],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      await ask({ search });
      times.push(performance.now() - started);
    }
    single.push({ name, ms: round(Math.min(...times)) });
    log(`${name}: best of 3 ${round(Math.min(...times))} ms`);
  }
  return single;
}

function writeReport(options: Options, report: Record<string, unknown>, loadAtStart: number[]): void {
  const written = writeResult(
    options.only === undefined ? 'conversations.json' : 'conversations-partial.json',
    report,
  );
  log(`wrote ${written}; load average at start ${loadAtStart.join(' ')}, now ${loadAverage().join(' ')}`);
}

const loadAverage = (): number[] => os.loadavg().map((l) => round(l));

export const main = async (argv: string[]): Promise<void> => {
  const options = parseOptions(argv);
  const loadAtStart = loadAverage();
  const { adminUrl, redisUrl } = benchServers();
  const { state, databaseUrl } = await seededDatabase({
    adminUrl,
    database: options.database,
    size: sizeFor(options.scale),
    reseed: false,
    analyse: ['conversations'],
    log,
  });
  const db = new Client({ connectionString: databaseUrl, application_name: 'sprout-bench-conversations' });
  await db.connect();
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const gateway = await startApiGateway({ databaseUrl, redisUrl, bullmqPrefix: prefix });
  let worker: LoadWorker | undefined;
  try {
    const { baseUrl, cookie } = gateway;
    const ask: Ask = async (query) =>
      (await gateway.call(api.messages.list, { query: listQuery(query) })).answer;
    const cases = await benchCases(db, options.only);
    worker = new LoadWorker({ baseUrl, cookie, databaseUrl, concurrency: options.concurrency });
    const results = await measureCases(worker, cases, options);
    const answers = await readAnswers(ask);
    const single = await timeCostliestSearches(ask);
    const report = {
      database: options.database,
      seededAt: state.seededAt.toISOString(),
      size: state.size,
      concurrency: options.concurrency,
      requestsPerCase: options.requests,
      machine: { cpus: os.cpus().length, loadAverageAtStart: loadAtStart, loadAverage: loadAverage() },
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
    await removeRunKeys(redisUrl, prefix);
  }
};
