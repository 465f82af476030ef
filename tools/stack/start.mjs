// npm start: the whole product on one origin (http://localhost:8080), from a fresh checkout.
// Installs dependencies, finds or starts Postgres and Redis, builds, migrates, seeds demo data
// once, runs the SMS sandbox and all six services, and the edge in front of them. Ctrl-C stops it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  DATA_DIR,
  ROOT,
  StackError,
  ensureDependencies,
  persistentSecret,
  reserveStackPorts,
  resolveDataServices,
  say,
} from './lib/stack.mjs';
import { NPX, formatDuration, runOrFail, startChild, stopChild, waitForReady } from './lib/proc.mjs';

const SERVICES = [
  { name: 'api-gateway', port: 3000 },
  { name: 'sms-gateway', port: 3001 },
  { name: 'ai-responder', port: 3002 },
  { name: 'survey-scheduler', port: 3003 },
  { name: 'image-processor', port: 3004 },
  { name: 'monitor', port: 3005 },
];
const SANDBOX_PORT = 3010;
const FAKE_NWS_PORT = 3012;
const EDGE_METRICS_PORT = 8081;
// Only the edge listens where the user chose (EDGE_HOST, default every interface, as before);
// the services, the sandbox and the edge's metrics stay on loopback, so a service's own port
// (api-gateway's /api/docs-json, every /metrics) is never reachable from the network.
const EDGE_HOST = process.env.EDGE_HOST || '0.0.0.0';
const LOOPBACK = '127.0.0.1';
const SANDBOX_ACCOUNT_SID = 'AC00000000000000000000000000000000';
const DEMO_USERS = Number(process.env.SEED_USERS ?? 2000);

const startedAt = Date.now();
const children = [];
let dataServices = null;
let edge = null;
let edgeMetrics = null;
let reservations = null;
let stopping = false;

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  say('stopping: services first, then the data services this run started');
  if (reservations) await reservations.releaseAll();
  if (edgeMetrics) await new Promise((resolve) => edgeMetrics.close(resolve).closeAllConnections());
  if (edge) await new Promise((resolve) => edge.close(resolve).closeAllConnections());
  await Promise.all(children.map((child) => stopChild(child)));
  if (dataServices) await dataServices.stop();
  fs.rmSync(path.join(DATA_DIR, 'sandbox.json'), { force: true });
  say('stopped');
  process.exit(code);
}

/** EDGE_WEBHOOK_RETRY_BUDGET_MS, checked as the standalone edge checks it. */
function retryBudgetMs() {
  const raw = process.env.EDGE_WEBHOOK_RETRY_BUDGET_MS?.trim();
  if (!raw) return undefined; // the edge's default
  if (!/^\d+$/.test(raw) || Number(raw) > 14_000)
    throw new StackError(
      `EDGE_WEBHOOK_RETRY_BUDGET_MS must be a whole number between 0 and 14000 (got "${raw}")`,
    );
  return Number(raw);
}

/** The admin login; a generated password is shown in full only on the start that created it. */
function adminLogin() {
  const username = process.env.ADMIN_USERNAME || 'admin';
  if (process.env.ADMIN_PASSWORD) {
    return { username, password: process.env.ADMIN_PASSWORD, shown: 'the password in ADMIN_PASSWORD' };
  }
  const secret = persistentSecret('admin-password', { bytes: 12 });
  return {
    username,
    password: secret.value,
    shown: secret.created
      ? `${secret.value}  (generated now and kept in .data/admin-password)`
      : 'the password in .data/admin-password',
  };
}

async function main() {
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void shutdown(0));

  const phases = [];
  const phase = (label, ms) => {
    phases.push(`${label} ${formatDuration(ms)}`);
    say(`${label}: ${formatDuration(ms)}`);
  };

  let t = Date.now();
  ensureDependencies();
  phase('dependencies', Date.now() - t);

  // Every port this stack listens on, reserved once now and claimed machine-wide until its
  // listener has bound it: a service never gets the sandbox's port, nor one a second checkout
  // starting meanwhile took. Default ports when free, else the next free ones: only the edge and
  // this script need them.
  const port = Number(process.env.PORT || 8080);
  const sandbox = !process.env.TWILIO_ACCOUNT_SID || !process.env.TWILIO_AUTH_TOKEN;
  // The sandbox also forecasts the weather (mild) unless NWS_BASE_URL names a weather service.
  const fakeNws = sandbox && !process.env.NWS_BASE_URL;
  reservations = await reserveStackPorts([
    { name: 'edge', port, fixed: true, hint: 'stop what uses it or run with PORT=<another port>' },
    ...SERVICES.map((service) => ({ name: service.name, port: service.port })),
    { name: 'edge-metrics', port: EDGE_METRICS_PORT },
    ...(sandbox ? [{ name: 'fake-twilio', port: SANDBOX_PORT }] : []),
    ...(fakeNws ? [{ name: 'fake-nws', port: FAKE_NWS_PORT }] : []),
  ]);
  const ports = reservations.ports;

  t = Date.now();
  dataServices = await resolveDataServices({ purpose: 'start' });
  const { databaseUrl, redisUrl } = dataServices;
  phase('postgres and redis', Date.now() - t);

  phase(
    'build',
    runOrFail('the build', NPX, ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], {
      env: process.env,
    }),
  );

  const baseEnv = { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl };
  phase(
    'migrate',
    runOrFail('migrations', process.execPath, ['tools/dist/stack/migrate.js'], { env: baseEnv }),
  );
  t = Date.now();
  // Seeded photos point at this run's sandbox; with real Twilio credentials the seed says why it
  // skips (SEED_DEMO_WITH_REAL_TWILIO=1 forces it) and the stack starts without demo data.
  const seedEnv = sandbox
    ? { ...baseEnv, TWILIO_API_BASE_URL: `http://127.0.0.1:${ports['fake-twilio']}` }
    : baseEnv;
  const { runSeed } = createRequire(import.meta.url)(path.join(ROOT, 'tools/dist/seed/main.js'));
  try {
    const seeded = await runSeed(['--once', '--users', String(DEMO_USERS)], seedEnv, (text) =>
      process.stdout.write(text),
    );
    phase(seeded === 'refused' ? 'demo data skipped' : 'demo data', Date.now() - t);
  } catch (error) {
    const reason = error instanceof Error ? error.message : error;
    throw new StackError(`seeding demo data failed (SEED_USERS=${DEMO_USERS}): ${reason}`);
  }

  const publicBaseUrl = (process.env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const admin = adminLogin();
  const serviceEnv = {
    ...baseEnv,
    PUBLIC_BASE_URL: publicBaseUrl,
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
    HOST: LOOPBACK,
    SESSION_SECRET: process.env.SESSION_SECRET || persistentSecret('session-secret', { bytes: 32 }).value,
    // The edge runs in this process and reaches the services on loopback: its X-Forwarded-For
    // (the client's socket address, written by the edge) is believed; anyone else's is not.
    TRUST_PROXY: process.env.TRUST_PROXY ?? '127.0.0.1,::1',
  };

  // The SMS sandbox: the fake Twilio, reached by the real twilio SDK through TWILIO_API_BASE_URL.
  let sandboxInfo = null;
  const width = Math.max(...SERVICES.map((s) => s.name.length), 'fake-twilio'.length);
  if (sandbox) {
    const fakePath = path.join(ROOT, 'libs/testing/dist/fakes/fake-twilio.main.js');
    if (!fs.existsSync(fakePath))
      throw new StackError(`the SMS sandbox is missing: ${fakePath} (did the build run?)`);
    const fakePort = ports['fake-twilio'];
    const accountSid = SANDBOX_ACCOUNT_SID;
    const authToken = process.env.TWILIO_AUTH_TOKEN || persistentSecret('twilio-sandbox-auth-token').value;
    const phoneNumber = process.env.TWILIO_PHONE_NUMBER || '+15005550006';
    await reservations.release('fake-twilio');
    const fake = startChild('fake-twilio', process.execPath, [fakePath], {
      env: {
        ...process.env,
        FAKE_TWILIO_PORT: String(fakePort),
        FAKE_TWILIO_HOST: LOOPBACK,
        TWILIO_ACCOUNT_SID: accountSid,
        TWILIO_AUTH_TOKEN: authToken,
      },
      index: SERVICES.length,
      width,
    });
    children.push(fake);
    Object.assign(serviceEnv, {
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_PHONE_NUMBER: phoneNumber,
      // Also the one loopback endpoint image-processor may fetch media from (by host:port).
      TWILIO_API_BASE_URL: `http://127.0.0.1:${fakePort}`,
    });
    sandboxInfo = { fakeTwilioUrl: `http://127.0.0.1:${fakePort}`, publicBaseUrl, phoneNumber };
  }
  if (fakeNws) {
    const nwsPath = path.join(ROOT, 'libs/testing/dist/fakes/fake-nws.main.js');
    if (!fs.existsSync(nwsPath))
      throw new StackError(`the NWS sandbox is missing: ${nwsPath} (did the build run?)`);
    await reservations.release('fake-nws');
    const nws = startChild('fake-nws', process.execPath, [nwsPath], {
      env: { ...process.env, FAKE_NWS_PORT: String(ports['fake-nws']), FAKE_NWS_HOST: LOOPBACK },
      index: SERVICES.length + 1,
      width,
    });
    children.push(nws);
    // survey-scheduler's frost and heat checks ask it instead of api.weather.gov.
    serviceEnv.NWS_BASE_URL = `http://127.0.0.1:${ports['fake-nws']}`;
  }

  t = Date.now();
  for (const [index, service] of SERVICES.entries()) {
    const main = path.join(ROOT, 'services', service.name, 'dist/main.js');
    if (!fs.existsSync(main)) throw new StackError(`${main} is missing (did the build run?)`);
    service.actualPort = ports[service.name];
    await reservations.release(service.name);
    service.child = startChild(service.name, process.execPath, [main], {
      env: { ...serviceEnv, PORT: String(service.actualPort) },
      cwd: path.join(ROOT, 'services', service.name),
      index,
      width,
    });
    children.push(service.child);
  }

  const { createEdge, createEdgeMetricsServer } = createRequire(import.meta.url)(
    path.join(ROOT, 'services/edge/dist/index.js'),
  );
  const portOf = (name) => SERVICES.find((s) => s.name === name).actualPort;
  edge = createEdge({
    apiGatewayUrl: `http://${LOOPBACK}:${portOf('api-gateway')}`,
    smsGatewayUrl: `http://${LOOPBACK}:${portOf('sms-gateway')}`,
    webhookRetryBudgetMs: retryBudgetMs(),
    // Webhooks no sms-gateway took in time (one replica here, restarting): kept and replayed.
    spoolDir: process.env.EDGE_SPOOL_DIR || path.join(DATA_DIR, 'edge-spool'),
    log: (line) => say(line),
  });
  edgeMetrics = createEdgeMetricsServer(edge);
  const listen = async (server, name, host) => {
    await reservations.release(name);
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports[name], host, resolve);
    });
  };
  await listen(edge, 'edge', EDGE_HOST);
  await listen(edgeMetrics, 'edge-metrics', LOOPBACK);

  const results = await Promise.all(
    SERVICES.map(async (service) => ({
      service,
      ...(await waitForReady(`http://${LOOPBACK}:${service.actualPort}/health/ready`, {
        child: service.child,
      })),
    })),
  );
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) {
    throw new StackError(`not ready: ${failed.map((r) => `${r.service.name} ${r.reason}`).join('; ')}`);
  }
  phase('services ready', Date.now() - t);

  if (sandboxInfo)
    fs.writeFileSync(path.join(DATA_DIR, 'sandbox.json'), `${JSON.stringify(sandboxInfo, null, 2)}\n`);

  const lines = [
    '',
    `  Sprout is running at http://localhost:${port}  (admin console: http://localhost:${port}/admin)`,
    `  Admin login: ${admin.username} / ${admin.shown}`,
    `  Postgres: ${dataServices.sources.database}, Redis: ${dataServices.sources.redis}; ` +
      `AI: ${process.env.OPENAI_API_KEY ? 'OpenAI' : 'the offline advisor (no OPENAI_API_KEY)'}; ` +
      `SMS: ${sandbox ? 'sandbox (fake Twilio; try `npm run sms -- "When do I plant garlic?"`)' : 'Twilio'}`,
    `  Services on ${LOOPBACK} only: ${SERVICES.map((s) => `${s.name} :${s.actualPort}`).join(', ')}; ` +
      `edge metrics http://${LOOPBACK}:${ports['edge-metrics']}/metrics`,
    `  Started in ${formatDuration(Date.now() - startedAt)} (${phases.join(', ')}). Ctrl-C stops everything.`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  // A service that dies takes the stack down: half a product is more confusing than none.
  for (const child of children) {
    void child.exited.then(({ code, signal }) => {
      if (stopping) return;
      say(`a child process exited (${code ?? signal}); stopping everything`);
      void shutdown(1);
    });
  }
}

main().catch(async (error) => {
  process.stderr.write(
    `\nnpm start failed: ${error instanceof StackError ? error.message : (error?.stack ?? error)}\n`,
  );
  await shutdown(1);
});
