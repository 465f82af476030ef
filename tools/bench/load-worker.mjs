// Load generator of the admin benchmark, in a worker thread so the clients do not share an event
// loop with the api-gateway they measure. Messages in: { id, kind: 'http' | 'sql', concurrency,
// jobs: [{ url } | { name?, text, values } | [{ text, values }, ...]] }. Out: { id, latencies (ms, in job order), errors, wallMs }.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';

const { baseUrl, cookie, databaseUrl, concurrency: poolSize } = workerData;
const pool = new pg.Pool({
  connectionString: databaseUrl,
  max: poolSize,
  application_name: 'sprout-bench-sql',
});

// node:http with keep-alive: a lighter client than fetch, so the clients' own work (which shares the
// cores) weighs on the HTTP timings no more than pg's does on the SQL ones.
const agent = new http.Agent({ keepAlive: true, maxSockets: poolSize });
const base = new URL(baseUrl);

const httpJob = (job) =>
  new Promise((resolve, reject) => {
    const request = http.get(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path: job.url,
        headers: { cookie, accept: 'application/json' },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode !== 200)
            reject(new Error(`${response.statusCode} ${job.url}: ${body.slice(0, 200)}`));
          else resolve(body.length);
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });

// A job is one statement, or several run in turn on one connection (e.g. an estimate, then a page).
// A statement with a name runs prepared, as the gateway runs its fixed polled statements.
const sqlJob = async (job) => {
  if (!Array.isArray(job)) return (await pool.query(job)).rowCount ?? 0;
  const client = await pool.connect();
  try {
    let rows = 0;
    for (const statement of job) rows += (await client.query(statement.text, statement.values)).rowCount ?? 0;
    return rows;
  } finally {
    client.release();
  }
};

const run = async ({ kind, concurrency, jobs }) => {
  const latencies = new Array(jobs.length).fill(0);
  const errors = [];
  let next = 0;
  const execute = kind === 'http' ? httpJob : sqlJob;
  const client = async () => {
    for (;;) {
      const index = next++;
      if (index >= jobs.length) return;
      const started = performance.now();
      try {
        await execute(jobs[index]);
      } catch (error) {
        if (errors.length < 5) errors.push(String(error?.message ?? error));
        else errors.push('');
      }
      latencies[index] = performance.now() - started;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, client));
  return { latencies, errors, wallMs: performance.now() - started };
};

parentPort.on('message', (message) => {
  if (message.type === 'close') {
    agent.destroy();
    pool.end().then(
      () => parentPort.postMessage({ id: message.id, closed: true }),
      () => parentPort.postMessage({ id: message.id, closed: true }),
    );
    return;
  }
  run(message).then(
    (result) => parentPort.postMessage({ id: message.id, ...result }),
    (error) => parentPort.postMessage({ id: message.id, fatal: String(error?.stack ?? error) }),
  );
});
