#!/usr/bin/env node
// npm run verify:image [-- --builder buildkit|legacy|both]
// Builds the Dockerfile in a private Docker daemon and runs the image the way Kubernetes would
// (settings read from k8s/): migrate, the six services, the SMS sandbox and the edge, on the
// host's network against the local Postgres and Redis, then texts Sprout through the edge and
// waits for the reply. Everything it made is removed at the end, on failure too.
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { parseArgs } from 'node:util';
import { buildLocalBase } from './lib/base-image.mjs';
import { ensureDocker, startPrivateDockerd } from './lib/docker-daemon.mjs';
import { baseConfig, securityFlags, workloads } from './lib/k8s-settings.mjs';
import { formatDuration, httpStatus } from './lib/proc.mjs';
import {
  DATA_DIR,
  ROOT,
  StackError,
  ensureDependencies,
  reserveStackPorts,
  resolveDataServices,
  say,
} from './lib/stack.mjs';

const USAGE = `Usage: npm run verify:image [-- --builder buildkit|legacy|both] [--ready-timeout <s>]

Builds the image in a private dockerd (installing Debian's docker.io when missing, as root), runs
migrate and every service from it with the k8s security settings against the local Postgres and
Redis (DATABASE_URL / REDIS_URL, else npm start's private instances), texts Sprout through the
edge container and waits for the sandbox reply, then removes everything it made.`;

const requireTools = createRequire(path.join(ROOT, 'tools', 'package.json'));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes) => `${Math.round(bytes / 1024 / 1024)} MB`;
const RUN_ID = `${process.pid}-${randomBytes(3).toString('hex')}`;
const NAME = `sprout-verify-${RUN_ID}`;
const WORK_DIR = path.join(os.tmpdir(), NAME);
const RESULTS_FILE = path.join(DATA_DIR, 'verify-image.json');
const SMS_FROM = '+15035550142';
const SMS_TEXT = 'When should I plant garlic in 97201?';

const cleanups = [];
const RUN_STARTED = Date.now();
const figures = { startedAt: new Date(RUN_STARTED).toISOString(), builds: [] };

/** Certificates this machine trusts that Node does not bundle (a proxy's CA, for one). */
function extraCaCerts() {
  const file =
    process.env.NODE_EXTRA_CA_CERTS || process.env.SSL_CERT_FILE || '/etc/ssl/certs/ca-certificates.crt';
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { pem: '', count: 0, file: null };
  }
  const body = (pem) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
  const bundled = new Set(tls.rootCertificates.map(body));
  const extra = (text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).filter(
    (pem) => !bundled.has(body(pem)),
  );
  return { pem: extra.join('\n'), count: extra.length, file };
}

/** Only loopback data services: the containers share the host's network. */
function assertLoopback(url, name) {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (!['127.0.0.1', 'localhost', '::1'].includes(host))
    throw new StackError(`${name} must point at this machine (127.0.0.1), not ${host}`);
}

/** A database of this run's own on the given server; dropped at the end. */
async function createDatabase(serverUrl) {
  const { Client } = requireTools('pg');
  const database = `sprout_verify_${RUN_ID.replace(/-/g, '_')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  cleanups.push(async () => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  });
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Deletes this run's Redis keys (its own BULLMQ_PREFIX) at the end. */
function cleanRedisPrefixAtEnd(redisUrl, prefix) {
  cleanups.push(async () => {
    const Redis = requireTools('ioredis');
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2, lazyConnect: true });
    await redis.connect();
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) await redis.unlink(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  });
}

/** Runs a docker command to completion with its output shown; throws with `what` on failure. */
function dockerStep(docker, args, what, { timeoutMs, extraEnv } = {}) {
  const started = Date.now();
  const result = docker.run(args, { timeoutMs, extraEnv, inherit: true });
  if (result.status !== 0)
    throw new StackError(`${what} failed (exit ${result.status}); see the output above`);
  return Date.now() - started;
}

function imageSize(docker, image) {
  const out = docker.run(['image', 'inspect', '--format', '{{.Size}}', image]);
  return out.status === 0 ? Number(out.stdout.trim()) : null;
}

async function ensureBase(docker, baseImage) {
  if (imageSize(docker, baseImage) !== null) return 'present';
  say(`base image ${baseImage}: trying to pull it`);
  const pull = docker.run(['pull', baseImage], { timeoutMs: 120_000 });
  if (pull.status === 0) return 'pulled';
  say(
    `base image: cannot pull ${baseImage} (${pull.stderr.trim().split('\n').at(-1)}); building a local one`,
  );
  const started = Date.now();
  await buildLocalBase({ docker, tag: baseImage, workDir: WORK_DIR });
  figures.baseBuildMs = Date.now() - started;
  return "built locally (debootstrap bookworm + this machine's node)";
}

function buildImage(docker, builder, tag, ca) {
  say(`docker build (${builder === 'buildkit' ? 'BuildKit' : 'legacy builder'}) -> ${tag}`);
  const args = ['build', '--network', 'host', '--tag', tag];
  if (builder === 'buildkit') args.push('--progress', 'plain');
  if (ca.pem) args.push('--build-arg', `EXTRA_CA_CERTS=${ca.pem}`);
  args.push(ROOT);
  const ms = dockerStep(docker, args, `docker build (${builder})`, {
    timeoutMs: 45 * 60_000,
    extraEnv: { DOCKER_BUILDKIT: builder === 'buildkit' ? '1' : '0' },
  });
  const size = imageSize(docker, tag);
  figures.builds.push({ builder, ms, bytes: size });
  say(`built with ${builder} in ${formatDuration(ms)}: ${mb(size)}`);
}

function containerLogs(docker, name, lines = 40) {
  const out = docker.run(['logs', '--tail', String(lines), name]);
  return `${out.stdout}${out.stderr}`.trim();
}

/** Starts a workload's container detached; returns its name. */
function runContainer(docker, image, workload, env, { detach = true } = {}) {
  const name = `${NAME}-${workload.name}`;
  const args = ['run', detach ? '--detach' : '--rm', '--name', name, '--network', 'host'];
  args.push(...securityFlags(workload));
  for (const [key, value] of Object.entries(env)) args.push('--env', `${key}=${value}`);
  args.push(image, ...workload.command);
  return { name, args };
}

function checkSettings(docker, name, workload) {
  const format =
    '{{.Config.User}}|{{.HostConfig.ReadonlyRootfs}}|{{.HostConfig.CapDrop}}|{{.HostConfig.Memory}}|{{.HostConfig.NetworkMode}}|{{.HostConfig.SecurityOpt}}';
  const out = docker.run(['inspect', '--format', format, name]);
  const [user, readOnly, capDrop, memory, network, securityOpt] = out.stdout.trim().split('|');
  const ok =
    user === workload.user &&
    readOnly === 'true' &&
    /\bALL\b/.test(capDrop) &&
    Number(memory) === workload.memoryBytes &&
    network === 'host' &&
    securityOpt.includes('no-new-privileges');
  if (!ok)
    throw new StackError(
      `${name} does not run with the k8s settings: user ${user}, read-only ${readOnly}, cap-drop ${capDrop}, ` +
        `memory ${memory}, network ${network}, ${securityOpt}`,
    );
}

/** Waits until every url answers 200; a container that stops fails at once with its logs. */
async function waitReady(docker, targets, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  const pending = new Map(targets.map((t) => [t.name, t]));
  const readyAt = {};
  const started = Date.now();
  while (pending.size > 0) {
    for (const target of [...pending.values()]) {
      const state = docker.run([
        'inspect',
        '--format',
        '{{.State.Status}} {{.State.ExitCode}} {{.State.OOMKilled}}',
        target.container,
      ]);
      const [status, exitCode, oom] = state.stdout.trim().split(' ');
      if (status !== 'running') {
        throw new StackError(
          `${target.name} stopped (${status}, exit ${exitCode}${oom === 'true' ? ', out of memory' : ''}):\n` +
            containerLogs(docker, target.container),
        );
      }
      if ((await httpStatus(target.url, 2000)) === 200) {
        readyAt[target.name] = Date.now() - started;
        pending.delete(target.name);
      }
    }
    if (pending.size === 0) break;
    if (Date.now() > deadline) {
      const names = [...pending.keys()];
      throw new StackError(
        `not ready within ${formatDuration(timeoutMs)}: ${names.join(', ')}\n` +
          names.map((n) => `--- ${n}\n${containerLogs(docker, pending.get(n).container)}`).join('\n'),
      );
    }
    await sleep(500);
  }
  return readyAt;
}

/** Twilio's X-Twilio-Signature: HMAC-SHA1 of the URL and the sorted form fields, base64. */
function twilioSignature(authToken, url, params) {
  const data =
    url +
    Object.keys(params)
      .sort()
      .map((k) => `${k}${params[k]}`)
      .join('');
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

async function sandboxMessagesTo(fakeTwilioUrl, to) {
  const response = await fetch(`${fakeTwilioUrl}/_fake/messages`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new StackError(`the sandbox's /_fake/messages answered ${response.status}`);
  return (await response.json()).messages.filter((m) => m.to === to);
}

/**
 * Texts Sprout through the edge as Twilio delivers an SMS (a signed form post) and waits for the
 * reply in the sandbox. Returns the reply and how long the webhook and the reply took.
 */
async function textSprout({ edgeUrl, publicBaseUrl, fakeTwilioUrl, accountSid, authToken, phoneNumber }) {
  const sid = `SM${randomBytes(16).toString('hex')}`;
  const params = {
    AccountSid: accountSid,
    ApiVersion: '2010-04-01',
    Body: SMS_TEXT,
    From: SMS_FROM,
    FromCountry: 'US',
    MessageSid: sid,
    NumMedia: '0',
    NumSegments: '1',
    SmsMessageSid: sid,
    SmsSid: sid,
    SmsStatus: 'received',
    To: phoneNumber,
    ToCountry: 'US',
  };
  const webhookPath = '/webhooks/twilio/sms';
  const before = new Set((await sandboxMessagesTo(fakeTwilioUrl, SMS_FROM)).map((m) => m.sid));
  say(`texting Sprout through the edge: ${SMS_FROM} "${SMS_TEXT}"`);
  const started = Date.now();
  const response = await fetch(`${edgeUrl}${webhookPath}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Twilio-Signature': twilioSignature(authToken, `${publicBaseUrl}${webhookPath}`, params),
    },
    body: new URLSearchParams(params).toString(),
    signal: AbortSignal.timeout(30_000),
  });
  const webhookMs = Date.now() - started;
  await response.arrayBuffer();
  if (response.status !== 200)
    throw new StackError(`the edge answered the signed webhook with ${response.status}`);
  const deadline = started + 120_000;
  for (;;) {
    const fresh = (await sandboxMessagesTo(fakeTwilioUrl, SMS_FROM)).filter((m) => !before.has(m.sid));
    if (fresh.length > 0) {
      const replyMs = Date.now() - started;
      for (const m of fresh) process.stdout.write(`  < ${m.body}\n`);
      return { webhookMs, replyMs, replies: fresh.map((m) => m.body) };
    }
    if (Date.now() > deadline) throw new StackError('no reply reached the sandbox within 120 s of the text');
    await sleep(100);
  }
}

async function cleanup() {
  while (cleanups.length > 0) {
    const step = cleanups.pop();
    try {
      await step();
    } catch (error) {
      process.stderr.write(`cleanup: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
}

/** The command line: { builders, readyTimeoutMs }; prints the usage and exits on --help. */
function parseOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        builder: { type: 'string', default: 'buildkit' },
        'ready-timeout': { type: 'string', default: '240' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new StackError(`${error.message}\n\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (!['buildkit', 'legacy', 'both'].includes(values.builder))
    throw new StackError(`--builder must be buildkit, legacy or both, not ${values.builder}`);
  const builders = values.builder === 'both' ? ['buildkit', 'legacy'] : [values.builder];
  const readyTimeoutMs = Number(values['ready-timeout']) * 1000;
  if (!(readyTimeoutMs > 0)) throw new StackError('--ready-timeout must be a number of seconds');

  return { builders, readyTimeoutMs };
}

async function main({ builders, readyTimeoutMs }) {
  ensureDependencies();
  const bins = ensureDocker();
  const all = workloads();
  const byName = (name) => {
    const found = all.find((w) => w.name === name);
    if (!found) throw new StackError(`k8s/ has no workload named ${name}`);
    return found;
  };
  const services = all.filter((w) => w.kind === 'Deployment' && w.command[1]?.startsWith('services/'));
  if (services.length !== 6)
    throw new StackError(`expected six services in k8s/base, found ${services.length}`);

  // Data services: a database and a BullMQ prefix of this run's own, removed at the end.
  const data = await resolveDataServices({ purpose: 'start' });
  cleanups.push(() => data.stop());
  assertLoopback(data.databaseUrl, 'DATABASE_URL');
  assertLoopback(data.redisUrl, 'REDIS_URL');
  const databaseUrl = await createDatabase(data.databaseUrl);
  const prefix = `verify-image-${RUN_ID}`;
  cleanRedisPrefixAtEnd(data.redisUrl, prefix);

  const docker = await startPrivateDockerd({ ...bins, dir: WORK_DIR });
  cleanups.push(() => docker.stop());
  figures.dockerd = docker.version;

  const baseImage = /^ARG NODE_IMAGE=(\S+)$/m.exec(
    fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'),
  )?.[1];
  if (!baseImage) throw new StackError('the Dockerfile names no ARG NODE_IMAGE=<base image>');
  figures.base = {
    image: baseImage,
    source: await ensureBase(docker, baseImage),
    bytes: imageSize(docker, baseImage),
  };
  say(`base image ${baseImage}: ${figures.base.source}, ${mb(figures.base.bytes)}`);

  const ca = extraCaCerts();
  if (ca.count > 0)
    say(
      `npm in the build trusts ${ca.count} CA certificate(s) of this machine beyond Node's own (${ca.file})`,
    );
  let image = null;
  for (const builder of builders) {
    image = `${NAME}:${builder}`;
    buildImage(docker, builder, image, ca);
  }

  // Ports on the host's network: free ones, held until each container starts.
  const ports = await reserveStackPorts([
    { name: 'edge', port: 18080 },
    ...services.map((s, i) => ({ name: s.name, port: 13000 + i })),
    { name: 'fake-twilio', port: 13010 },
  ]);
  cleanups.push(() => ports.releaseAll());
  const port = ports.ports;
  const publicBaseUrl = `http://127.0.0.1:${port.edge}`;
  const fakeTwilioUrl = `http://127.0.0.1:${port['fake-twilio']}`;
  const twilio = {
    accountSid: byName('fake-twilio').env.TWILIO_ACCOUNT_SID ?? 'AC00000000000000000000000000000000',
    authToken: randomBytes(16).toString('hex'),
    phoneNumber: '+15005550006',
  };
  // The ConfigMap as k8s has it, and what the overlays' Secret and this machine change.
  const env = {
    ...baseConfig(),
    BULLMQ_PREFIX: prefix,
    PUBLIC_BASE_URL: publicBaseUrl,
    TRUST_PROXY: '127.0.0.1,::1',
    COOKIE_SECURE: 'false',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    REDIS_URL: data.redisUrl,
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_PHONE_NUMBER: twilio.phoneNumber,
    TWILIO_API_BASE_URL: fakeTwilioUrl,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ADMIN_PASSWORD: randomBytes(12).toString('base64url'),
  };

  const containers = [];
  cleanups.push(() => {
    for (const name of containers) docker.run(['rm', '--force', name], { timeoutMs: 60_000 });
  });

  say("migrate: running the Job's container");
  const migrate = byName('migrate');
  const migrateRun = runContainer(docker, image, migrate, env, { detach: false });
  figures.migrateMs = dockerStep(docker, migrateRun.args, 'migrate', { timeoutMs: 300_000 });

  const readyStarted = Date.now();
  const targets = [];
  const start = async (workload, workloadEnv, readyUrl) => {
    await ports.release(workload.name);
    const { name, args } = runContainer(docker, image, workload, workloadEnv);
    containers.push(name);
    const result = docker.run(args, { timeoutMs: 60_000 });
    if (result.status !== 0)
      throw new StackError(`docker run ${workload.name} failed: ${result.stderr.trim()}`);
    checkSettings(docker, name, workload);
    targets.push({ name: workload.name, container: name, url: readyUrl, workload });
  };
  const sandbox = byName('fake-twilio');
  await start(
    sandbox,
    {
      ...sandbox.env,
      FAKE_TWILIO_PORT: String(port['fake-twilio']),
      FAKE_TWILIO_HOST: '127.0.0.1',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
    },
    `${fakeTwilioUrl}/_fake/messages`,
  );
  for (const service of services) {
    await start(
      service,
      { ...env, ...service.env, PORT: String(port[service.name]) },
      `http://127.0.0.1:${port[service.name]}/health/ready`,
    );
  }
  const edge = byName('edge');
  await start(
    edge,
    {
      ...edge.env,
      PORT: String(port.edge),
      HOST: '127.0.0.1',
      API_GATEWAY_URL: `http://127.0.0.1:${port['api-gateway']}`,
      SMS_GATEWAY_URL: `http://127.0.0.1:${port['sms-gateway']}`,
      EDGE_TRUSTED_PROXIES: '',
    },
    `${publicBaseUrl}/health/ready`,
  );
  say(`waiting for ${targets.length} containers to be ready (at most ${formatDuration(readyTimeoutMs)})`);
  figures.readyAt = await waitReady(docker, targets, readyTimeoutMs);
  figures.readyMs = Date.now() - readyStarted;
  say(`all ready in ${formatDuration(figures.readyMs)}`);

  figures.sms = await textSprout({ edgeUrl: publicBaseUrl, publicBaseUrl, fakeTwilioUrl, ...twilio });

  const stats = docker.run(['stats', '--no-stream', '--format', '{{.Name}} {{.MemUsage}}', ...containers]);
  figures.memory = Object.fromEntries(
    stats.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name, ...usage] = line.split(' ');
        return [name.slice(NAME.length + 1), usage.join(' ')];
      }),
  );
  figures.ok = true;
}

function report() {
  const lines = ['', '  verify:image'];
  if (figures.base)
    lines.push(
      `  base image   ${figures.base.image}: ${figures.base.source}, ${mb(figures.base.bytes ?? 0)}`,
    );
  for (const b of figures.builds) {
    const app = figures.base?.bytes ? `, ${mb(b.bytes - figures.base.bytes)} over the base` : '';
    lines.push(`  build        ${b.builder}: ${formatDuration(b.ms)}, image ${mb(b.bytes)}${app}`);
  }
  if (figures.migrateMs !== undefined) lines.push(`  migrate      ${formatDuration(figures.migrateMs)}`);
  if (figures.readyMs !== undefined) {
    const each = Object.entries(figures.readyAt)
      .map(([name, ms]) => `${name} ${formatDuration(ms)}`)
      .join(', ');
    lines.push(
      `  ready        all ${Object.keys(figures.readyAt).length} in ${formatDuration(figures.readyMs)} (${each})`,
    );
  }
  if (figures.sms) {
    lines.push(
      `  text         the edge answered the webhook in ${formatDuration(figures.sms.webhookMs)}; the reply reached the sandbox ${formatDuration(figures.sms.replyMs)} after the text`,
    );
    for (const reply of figures.sms.replies) lines.push(`               < ${reply}`);
  }
  if (figures.memory) {
    lines.push(
      `  memory       ${Object.entries(figures.memory)
        .map(([name, usage]) => `${name} ${usage}`)
        .join('; ')}`,
    );
  }
  lines.push(
    `  total        ${formatDuration(figures.totalMs)} (removing what it made: ${formatDuration(figures.cleanupMs)})`,
  );
  process.stdout.write(`${lines.join('\n')}\n\n`);
  fs.mkdirSync(DATA_DIR, { recursive: true });
  fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(figures, null, 2)}\n`);
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    say(`${signal}: removing what this run made`);
    void cleanup().then(() => process.exit(130));
  });
}

try {
  await main(parseOptions());
} catch (error) {
  figures.ok = false;
  figures.error = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    `\nverify:image failed: ${error instanceof StackError ? error.message : (error?.stack ?? error)}\n`,
  );
  process.exitCode = 1;
} finally {
  if (!interrupted) {
    say('removing the containers, images, database, Redis keys and the private dockerd');
    const cleanupStarted = Date.now();
    await cleanup();
    figures.cleanupMs = Date.now() - cleanupStarted;
    figures.totalMs = Date.now() - RUN_STARTED;
    report();
    say(figures.ok ? 'verify:image: ok' : 'verify:image: FAILED');
  }
}
