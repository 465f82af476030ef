// `npm run bench:admin`: the admin Users and Messages endpoints on 1M users, 2M conversations
// and 10M messages. Seeds (or reuses) a database of its own, boots api-gateway in-process on
// loopback with a logged-in admin session, then for every endpoint measures p50/p95 under
// concurrent polling (HTTP, clients in a worker thread) and the same answer's hand-written SQL
// run straight through pg at the same concurrency. Prints a table and writes
// bench-results/admin.json. What is measured, and the SQL baselines: admin-scenarios.ts.
//
// Options: --scale=<fraction of the full size, default 1> --db=<database, default sprout_bench>
// --reseed --seed-only --concurrency=<8> --requests=<800 per endpoint and mode> --max-seconds=<30 per run>
// --only=<text: measure just the endpoints whose name contains it>
import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import { Client } from 'pg';
import { api } from '@sprout/contracts';
import { type SeedState, seedDatabaseName, seededDatabase, sizeFor } from '../seed/bulk';
import {
  type Job,
  type Samples,
  type Scenario,
  type Statement,
  sampleParameters,
  scenarios,
} from './admin-scenarios';
import { startApiGateway } from './api-gateway';
import {
  type Summary,
  benchServers,
  log,
  quantile,
  readFlags,
  removeRunKeys,
  round,
  routeOf,
  summarize,
  writeResult,
} from './harness';
import { LoadWorker, repeat } from './load-client';

const P95_TARGET_MS = 50;
/** Requests per endpoint and mode before measuring. */
const WARM_UP_REQUESTS = 200;
/** Measured requests are split into this many alternating HTTP / SQL rounds. */
const MEASURE_ROUNDS = 4;
const RATIO_TARGET = 2;
/** Every service's liveness probe (libs/platform): no session, no database. */
const LIVENESS_PATH = '/health/live';

const parseOptions = (argv: string[]) => {
  const flags = readFlags(argv);
  // --users=200000 is --scale=0.2 (users, conversations and messages in the same proportions).
  const scale = flags.has('users')
    ? flags.positive('users', 1_000_000) / 1_000_000
    : flags.positive('scale', 1);
  return {
    scale,
    database: flags.text('db') ?? seedDatabaseName(scale),
    reseed: flags.has('reseed'),
    seedOnly: flags.has('seed-only'),
    only: flags.text('only'),
    concurrency: Math.round(flags.positive('concurrency', 8)),
    requests: Math.round(flags.positive('requests', 800)),
    maxSeconds: flags.positive('max-seconds', 30),
  };
};

type Options = ReturnType<typeof parseOptions>;

/** Milliseconds as the table and the JSON give them. */
const ms = (value: number): number => round(value, 2);

// ---------------------------------------------------------------------------------------------
// Measuring

interface ScenarioResult {
  name: string;
  route: string;
  requests: number;
  http: { p50: number; p95: number; max: number; requestsPerSecond: number; errors: number };
  sql: { p50: number; p95: number; max: number };
  /** The baseline run prepared, where the gateway prepares the answer's statement. */
  sqlPrepared?: { p50: number; p95: number; max: number };
  ratioPreparedP50?: number;
  ratioP50: number;
  ratioP95: number;
  naiveSqlMs?: number;
  meetsTargets: boolean;
  firstError?: string;
}

/** What the measured rounds of one scenario collected. */
interface Rounds {
  http: number[];
  sql: number[];
  prepared: number[];
  httpErrors: string[];
  httpWallMs: number;
}

/** What measuring works with: the load worker, the options, and a client for the naive statements. */
interface Measuring {
  worker: LoadWorker;
  options: Options;
  naiveClient: Client;
}

/** A job's baseline statement run as a named prepared statement, as the gateway runs it. */
const preparedBaseline = (job: Job): Statement | Statement[] =>
  Array.isArray(job.sql)
    ? job.sql
    : { ...job.sql, name: `bench_${createHash('sha1').update(job.sql.text).digest('hex').slice(0, 24)}` };

const urlsOf = (jobs: Job[]): string[] => jobs.map((j) => j.url);

/**
 * Warm-up (JIT, plan and connection caches on both sides; its timings are not kept), then how many
 * requests to measure: as many as fit `maxSeconds` at the warm-up's pace, at most `requests`.
 */
const warmUp = async ({ worker, options }: Measuring, scenario: Scenario): Promise<number> => {
  const warm = Array.from({ length: Math.min(WARM_UP_REQUESTS, options.requests) }, (_, i) =>
    scenario.jobs(i),
  );
  const warmHttp = await worker.http(options.concurrency, urlsOf(warm));
  if (warmHttp.errors.length > 0)
    throw new Error(`${scenario.name}: ${warmHttp.errors[0] ?? 'request failed'}`);
  await worker.run(
    'sql',
    options.concurrency,
    warm.map((j) => j.sql),
  );
  if (scenario.prepared === true) await worker.run('sql', options.concurrency, warm.map(preparedBaseline));
  const perRequestMs = warmHttp.wallMs / warm.length;
  return Math.max(
    options.concurrency * 4,
    Math.min(options.requests, Math.floor((options.maxSeconds * 1000) / Math.max(perRequestMs, 0.01))),
  );
};

/** HTTP and SQL take turns in rounds, so a change in the machine's other load weighs on both alike. */
const measureRounds = async (
  { worker, options }: Measuring,
  scenario: Scenario,
  count: number,
): Promise<Rounds> => {
  const jobs = Array.from({ length: count }, (_, i) => scenario.jobs(i + 1000));
  const rounds: Rounds = { http: [], sql: [], prepared: [], httpErrors: [], httpWallMs: 0 };
  const roundSize = Math.ceil(count / MEASURE_ROUNDS);
  for (let start = 0; start < count; start += roundSize) {
    const round = jobs.slice(start, start + roundSize);
    const http = await worker.http(options.concurrency, urlsOf(round));
    rounds.http.push(...http.latencies);
    rounds.httpErrors.push(...http.errors);
    rounds.httpWallMs += http.wallMs;
    const sql = await worker.run(
      'sql',
      options.concurrency,
      round.map((j) => j.sql),
    );
    rounds.sql.push(...sql.latencies);
    if (scenario.prepared === true)
      rounds.prepared.push(
        ...(await worker.run('sql', options.concurrency, round.map(preparedBaseline))).latencies,
      );
  }
  return rounds;
};

/** The naive statement's median of 3 runs on one client, for contrast. */
const naiveMs = async (client: Client, naive: Statement): Promise<number> => {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await client.query(naive.text, naive.values);
    times.push(performance.now() - started);
  }
  return round(quantile(times, 0.5), 1);
};

const resultOf = (scenario: Scenario, count: number, rounds: Rounds, naiveSqlMs?: number): ScenarioResult => {
  const h = summarize(rounds.http);
  const s = summarize(rounds.sql);
  const p = scenario.prepared === true ? summarize(rounds.prepared) : undefined;
  const errors = rounds.httpErrors;
  const ratioP50 = h.p50 / s.p50;
  const ratioP95 = h.p95 / s.p95;
  return {
    name: scenario.name,
    route: scenario.route,
    requests: count,
    http: {
      p50: ms(h.p50),
      p95: ms(h.p95),
      max: ms(h.max),
      requestsPerSecond: round((count / rounds.httpWallMs) * 1000, 0),
      errors: errors.length,
    },
    sql: { p50: ms(s.p50), p95: ms(s.p95), max: ms(s.max) },
    ...(p === undefined
      ? {}
      : {
          sqlPrepared: { p50: ms(p.p50), p95: ms(p.p95), max: ms(p.max) },
          ratioPreparedP50: ms(h.p50 / p.p50),
        }),
    ratioP50: ms(ratioP50),
    ratioP95: ms(ratioP95),
    ...(naiveSqlMs === undefined ? {} : { naiveSqlMs }),
    meetsTargets: errors.length === 0 && h.p95 < P95_TARGET_MS && ratioP50 <= RATIO_TARGET,
    ...(errors[0] ? { firstError: errors[0] } : {}),
  };
};

const measure = async (m: Measuring, scenario: Scenario): Promise<ScenarioResult> => {
  const count = await warmUp(m, scenario);
  const rounds = await measureRounds(m, scenario, count);
  const naive = scenario.naive ? await naiveMs(m.naiveClient, scenario.naive) : undefined;
  return resultOf(scenario, count, rounds, naive);
};

/** Every scenario (or those `--only` names) in turn, each logged as it ends. */
const measureScenarios = async (m: Measuring, samples: Samples): Promise<ScenarioResult[]> => {
  const results: ScenarioResult[] = [];
  const only = m.options.only;
  for (const scenario of scenarios(samples).filter((s) => only === undefined || s.name.includes(only))) {
    const result = await measure(m, scenario);
    log(
      `${result.name}: HTTP p50 ${result.http.p50} ms p95 ${result.http.p95} ms; SQL p50 ${result.sql.p50} ms ` +
        `p95 ${result.sql.p95} ms; ratio ${result.ratioP50}${result.firstError ? `; error: ${result.firstError}` : ''}`,
    );
    results.push(result);
  }
  return results;
};

interface Floors {
  floor: Summary;
  probe: Summary;
}

/** The fixed cost of any admin request (routing, session check in Redis, no database), for context. */
async function measureFloors({ worker, options }: Measuring): Promise<Floors> {
  const floorUrls = repeat(options.requests, api.auth.status.path);
  await worker.http(options.concurrency, floorUrls.slice(0, 40));
  const floor = summarize((await worker.http(options.concurrency, floorUrls)).latencies);
  log(`floor (GET ${api.auth.status.path}, no database): p50 ${ms(floor.p50)} ms p95 ${ms(floor.p95)} ms`);
  const probeUrls = repeat(options.requests, LIVENESS_PATH);
  const probe = summarize((await worker.http(options.concurrency, probeUrls)).latencies);
  log(`no session (GET ${LIVENESS_PATH}): p50 ${ms(probe.p50)} ms p95 ${ms(probe.p95)} ms`);
  return { floor, probe };
}

// ---------------------------------------------------------------------------------------------
// Report

const table = (results: ScenarioResult[]): string => {
  const header = [
    'endpoint',
    'n',
    'HTTP p50',
    'HTTP p95',
    'SQL p50',
    'SQL p95',
    'ratio p50',
    'ratio p95',
    'SQL prepared p50',
    'ratio (prepared)',
    'naive SQL',
    'targets',
  ];
  const rows = results.map((r) => [
    r.name,
    String(r.requests),
    `${r.http.p50.toFixed(1)} ms`,
    `${r.http.p95.toFixed(1)} ms`,
    `${r.sql.p50.toFixed(1)} ms`,
    `${r.sql.p95.toFixed(1)} ms`,
    r.ratioP50.toFixed(2),
    r.ratioP95.toFixed(2),
    r.sqlPrepared === undefined ? '' : `${r.sqlPrepared.p50.toFixed(1)} ms`,
    r.ratioPreparedP50 === undefined ? '' : r.ratioPreparedP50.toFixed(2),
    r.naiveSqlMs === undefined ? '' : `${r.naiveSqlMs.toFixed(0)} ms`,
    r.meetsTargets ? 'met' : 'MISSED',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
};

interface Run {
  options: Options;
  state: SeedState;
  floors: Floors;
  results: ScenarioResult[];
  /** The 1-minute load average before the scenarios. */
  loadBefore: number;
  postgres: string;
}

/** bench-results/admin.json (admin-partial.json with --only), and the table with how to read it. */
const report = ({ options, state, floors, results, loadBefore, postgres }: Run): void => {
  const { floor, probe } = floors;
  const loadAfter = round(os.loadavg()[0] ?? 0, 1);
  const written = writeResult(options.only === undefined ? 'admin.json' : 'admin-partial.json', {
    generatedAt: new Date().toISOString(),
    database: options.database,
    seededAt: state.seededAt.toISOString(),
    size: state.size,
    concurrency: options.concurrency,
    targets: { p95Ms: P95_TARGET_MS, ratioP50: RATIO_TARGET },
    floor: { route: routeOf(api.auth.status), p50: ms(floor.p50), p95: ms(floor.p95) },
    noSession: { route: `GET ${LIVENESS_PATH}`, p50: ms(probe.p50), p95: ms(probe.p95) },
    machine: {
      cpus: os.cpus().length,
      node: process.version,
      postgres,
      // Other work on the machine shares its cores: the 1-minute load average before and after.
      loadAverage: { before: round(loadBefore, 1), after: loadAfter },
    },
    results,
  });
  process.stdout.write(
    `\n${table(results)}\n\n${options.concurrency} concurrent clients over loopback; SQL = the same answer's ` +
      `hand-written statement through pg at the same concurrency, planned on every call; ratio = HTTP / SQL; ` +
      `SQL prepared = the same statement prepared, where the gateway prepares it; naive SQL = a plain ` +
      `count/sort without rollups or bounds (one client, median of 3).\nFloor: an authenticated request ` +
      `that reads no data (${routeOf(api.auth.status)}) takes p50 ${ms(floor.p50)} ms, p95 ${ms(floor.p95)} ms ` +
      `at the same concurrency (GET ${LIVENESS_PATH}, no session check: p50 ${ms(probe.p50)} ms, p95 ` +
      `${ms(probe.p95)} ms).\nMachine: ${os.cpus().length} cores, 1-minute load average ${round(loadBefore, 1)} ` +
      `before and ${loadAfter} after (other work shares the cores).\nWritten ${written}\n`,
  );
};

export const main = async (argv: string[]): Promise<void> => {
  const options = parseOptions(argv);
  const { adminUrl, redisUrl } = benchServers();
  const { state, databaseUrl } = await seededDatabase({
    adminUrl,
    database: options.database,
    size: sizeFor(options.scale),
    reseed: options.reseed,
    analyse: ['users', 'conversations', 'messages'],
    log,
  });
  if (options.seedOnly) return;

  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const gateway = await startApiGateway({ databaseUrl, redisUrl, bullmqPrefix: prefix });
  const naiveClient = new Client({ connectionString: databaseUrl, application_name: 'sprout-bench-naive' });
  let worker: LoadWorker | undefined;
  try {
    const { baseUrl, cookie } = gateway;
    log(`api-gateway on ${baseUrl}, signed in`);
    await naiveClient.connect();
    const samples = await sampleParameters(naiveClient);
    worker = new LoadWorker({ baseUrl, cookie, databaseUrl, concurrency: options.concurrency });
    const measuring = { worker, options, naiveClient };
    const floors = await measureFloors(measuring);
    const loadBefore = os.loadavg()[0] ?? 0;
    const results = await measureScenarios(measuring, samples);
    const postgres = (await naiveClient.query<{ v: string }>('SHOW server_version')).rows[0]?.v ?? '';
    report({ options, state, floors, results, loadBefore, postgres });
    if (results.some((r) => !r.meetsTargets)) process.exitCode = 1;
  } finally {
    await worker?.close();
    await naiveClient.end().catch(() => undefined);
    await gateway.close();
    await removeRunKeys(redisUrl, prefix);
  }
};
