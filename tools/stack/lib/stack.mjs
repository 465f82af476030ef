// The local stack's plumbing: dependencies, Postgres and Redis for `npm start` and `npm test`.
// Plain Node ESM with no dependencies: it runs before `npm install` has ever happened.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DATA_DIR = path.join(ROOT, '.data');

/** A failure the person at the keyboard can act on: the message says what to do; no stack trace needed. */
export class StackError extends Error {
  constructor(message) {
    super(message);
    this.name = 'StackError';
  }
}

export function say(message) {
  process.stdout.write(`[stack] ${message}\n`);
}

/** A path relative to the checkout when inside it, else absolute. */
export function displayPath(p) {
  const relative = path.relative(ROOT, p);
  return relative && !relative.startsWith('..') ? relative : p;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Dependencies

/**
 * Whether node_modules matches package-lock.json. An older node_modules is compared package by
 * package with npm's own record of what it installed (node_modules/.package-lock.json), so a lock
 * file that was merely rewritten does not trigger a full reinstall.
 */
export function dependencyState(root = ROOT) {
  const lockPath = path.join(root, 'package-lock.json');
  const installedPath = path.join(root, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(path.join(root, 'node_modules')))
    return { install: true, reason: 'node_modules is missing' };
  if (!fs.existsSync(installedPath)) {
    return {
      install: true,
      reason: 'node_modules was not installed by npm (no node_modules/.package-lock.json)',
    };
  }
  if (!fs.existsSync(lockPath)) return { install: false, reason: 'no package-lock.json' };
  if (fs.statSync(installedPath).mtimeMs >= fs.statSync(lockPath).mtimeMs) {
    return { install: false, reason: 'node_modules is newer than package-lock.json' };
  }
  const wanted = JSON.parse(fs.readFileSync(lockPath, 'utf8')).packages ?? {};
  const installed = JSON.parse(fs.readFileSync(installedPath, 'utf8')).packages ?? {};
  const differing = [];
  for (const [key, entry] of Object.entries(wanted)) {
    if (!key.includes('node_modules/')) continue;
    const have = installed[key];
    if (!have) {
      // Optional packages for other platforms (esbuild, swc, nx binaries) are never installed here.
      if (!entry.optional && !entry.devOptional) differing.push(`${key} (missing)`);
      continue;
    }
    if (!entry.link && entry.version !== have.version)
      differing.push(`${key} (${have.version} -> ${entry.version})`);
  }
  if (differing.length === 0) return { install: false, reason: 'node_modules matches package-lock.json' };
  return {
    install: true,
    reason: `node_modules is older than package-lock.json and differs in ${differing.length} package(s), e.g. ${differing.slice(0, 3).join(', ')}`,
  };
}

/** `npm ci` when node_modules is missing or out of date with package-lock.json. */
export function ensureDependencies({ root = ROOT } = {}) {
  const state = dependencyState(root);
  if (!state.install) {
    say(`dependencies: up to date (${state.reason})`);
    return false;
  }
  say(`dependencies: ${state.reason}: running npm ci`);
  // Several people may install at once on a shared machine; npm's cache is not safe for that.
  const npm = commandExists('flock') ? ['flock', path.join(os.tmpdir(), 'npm.lock'), 'npm'] : ['npm'];
  const ci = spawnSync(npm[0], [...npm.slice(1), 'ci', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (ci.status !== 0) {
    throw new StackError(
      'npm ci failed (see above). If it says package-lock.json is out of sync, run `npm install` and ' +
        '`npm run lock:platforms`, commit the lock file, and run the command again.',
    );
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Small process and network helpers

export function commandExists(name) {
  return findOnPath(name) !== null;
}

export function findOnPath(name, pathEnv = process.env.PATH ?? '') {
  for (const dir of pathEnv.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export function processAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** True when a TCP listener answers on 127.0.0.1:port. */
export function portAnswers(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export function portIsFree(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The first port from `start` up that nothing listens on. */
export async function findFreePort(start, { avoid = [], attempts = 200 } = {}) {
  for (let port = start; port < start + attempts; port += 1) {
    if (avoid.includes(port)) continue;
    if (await portIsFree(port)) return port;
  }
  throw new StackError(`no free TCP port in ${start}-${start + attempts - 1} on 127.0.0.1`);
}

// ---------------------------------------------------------------------------------------------
// Port claims: a port found free is not free for long. Between a check and the listener meant for
// it (a service started a few seconds later, Postgres a second later) another checkout's
// `npm start`, `npm test` or drill could check the same port and take it. So every port the stack
// picks is first claimed in a folder every checkout on the machine sees.

/** Machine-wide: every checkout and every user of this machine claims ports here. */
export const PORT_CLAIMS_DIR = path.join(os.tmpdir(), 'sprout-ports');
/** A claim younger than this may be one half of a race (retry); an older one is a holder. */
const FRESH_CLAIM_MS = 2_000;

function claimsIn(dir, port) {
  const prefix = `${port}.`;
  let names = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => ({ file: path.join(dir, name), pid: Number(name.slice(prefix.length)) }));
}

function claimsFolder(dir) {
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    try {
      // Sticky and open to all, like /tmp: other users' checkouts claim here too.
      if (dir === PORT_CLAIMS_DIR) fs.chmodSync(dir, 0o1777);
    } catch {
      // made by another user a moment ago: theirs to set
    }
  }
  return dir;
}

/** Removes a claim file; another user's stays (the sticky folder keeps it), which is harmless. */
function dropClaim(file) {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // EPERM: not ours to remove
  }
}

/**
 * Claims `port` for this process until unclaimPort: a file <port>.<pid>, created exclusively.
 * The claim holds when no other live process has one for the port. Each process writes its file
 * before it lists the others, so of two claiming at once at least one sees the other and backs
 * off: they never both hold it (both may back off; a fresh rival is retried a few times). Files
 * of dead processes are ignored and removed.
 */
export async function claimPort(port, { dir = PORT_CLAIMS_DIR } = {}) {
  const own = path.join(claimsFolder(dir), `${port}.${process.pid}`);
  for (let attempt = 0; attempt < 6; attempt += 1) {
    try {
      fs.writeFileSync(own, `${new Date().toISOString()}\n`, { flag: 'wx' });
    } catch (error) {
      if (error.code === 'EEXIST') return false; // this process holds it already, for another use
      throw error;
    }
    let freshRival = false;
    let rival = false;
    for (const claim of claimsIn(dir, port)) {
      if (claim.pid === process.pid) continue;
      if (!processAlive(claim.pid)) {
        dropClaim(claim.file);
        continue;
      }
      rival = true;
      try {
        if (Date.now() - fs.statSync(claim.file).mtimeMs < FRESH_CLAIM_MS) freshRival = true;
      } catch {
        // gone meanwhile: its owner backed off
      }
    }
    if (!rival) return true;
    dropClaim(own);
    if (!freshRival) return false;
    await sleep(10 + Math.random() * 50);
  }
  return false;
}

export function unclaimPort(port, { dir = PORT_CLAIMS_DIR } = {}) {
  dropClaim(path.join(dir, `${port}.${process.pid}`));
}

/**
 * The first port from `start` up that is free and now claimed by this process (for a server that
 * binds it itself, such as Postgres or Redis). Call release() once the server listens on it.
 */
export async function claimFreePort(start, { attempts = 200, dir = PORT_CLAIMS_DIR } = {}) {
  for (let port = start; port < start + attempts; port += 1) {
    if (!(await claimPort(port, { dir }))) continue;
    if (await portIsFree(port)) return { port, release: () => unclaimPort(port, { dir }) };
    unclaimPort(port, { dir });
  }
  throw new StackError(`no free TCP port in ${start}-${start + attempts - 1} on 127.0.0.1`);
}

/** Listens on host:port and keeps listening; null when the port is taken. */
function holdPort(port, host) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(null));
    server.listen({ port, host, exclusive: true }, () => resolve(server));
  });
}

/**
 * The ports of a whole stack, each given out once. `wanted` lists { name, port, fixed?, hint? }:
 * each gets its own port when free, else the next free one that no other entry has or wants (a
 * `fixed` one fails instead, with `hint`). Each port is claimed machine-wide (claimPort) and held
 * by a listening socket of this process. release(name), called right before the listener meant
 * for it starts, closes the socket but keeps the claim, so no other checkout takes the port
 * before that listener has bound it; releaseAll() drops sockets and claims (at shutdown). Free
 * means free on 127.0.0.1 and on 0.0.0.0.
 * Returns { ports: { [name]: port }, release(name), releaseAll() }.
 */
export async function reserveStackPorts(wanted, { attempts = 200, claimsDir = PORT_CLAIMS_DIR } = {}) {
  const names = new Set(wanted.map((w) => w.name));
  if (names.size !== wanted.length) throw new Error('reserveStackPorts: a name is listed twice');
  const held = new Map();
  const ports = {};
  const close = (server) => new Promise((resolve) => server.close(() => resolve()));
  const releaseAll = async () => {
    await Promise.all([...held.values()].map(close));
    held.clear();
    for (const port of Object.values(ports)) unclaimPort(port, { dir: claimsDir });
  };
  const take = async (name, port) => {
    if (Object.values(ports).includes(port) || !(await claimPort(port, { dir: claimsDir }))) return false;
    const server = (await portIsFree(port, '127.0.0.1')) ? await holdPort(port, '0.0.0.0') : null;
    if (!server) {
      unclaimPort(port, { dir: claimsDir });
      return false;
    }
    held.set(name, server);
    ports[name] = port;
    return true;
  };
  try {
    // Defaults first, so an entry that moves up never takes the default of one listed after it.
    for (const { name, port } of wanted) await take(name, port);
    const defaults = wanted.map((w) => w.port);
    for (const { name, port: preferred, fixed = false, hint } of wanted) {
      if (name in ports) continue;
      if (fixed)
        throw new StackError(`port ${preferred} (${name}) is already in use${hint ? `; ${hint}` : ''}`);
      const last = preferred + attempts - 1;
      for (let port = preferred + 1; port <= last && !(name in ports); port += 1) {
        if (!defaults.includes(port)) await take(name, port);
      }
      if (!(name in ports)) throw new StackError(`no free TCP port for ${name} in ${preferred}-${last}`);
    }
  } catch (error) {
    await releaseAll();
    throw error;
  }
  return {
    ports,
    async release(name) {
      const server = held.get(name);
      held.delete(name);
      if (server) await close(server);
    },
    releaseAll,
  };
}

/** Sends one inline command to Redis over a raw socket and returns the first reply line. */
export function redisCommand(port, command, host = '127.0.0.1', timeoutMs = 2000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    let buffer = '';
    const done = (reply) => {
      socket.destroy();
      resolve(reply);
    };
    socket.setTimeout(timeoutMs, () => done(null));
    socket.once('error', () => done(null));
    socket.once('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      const end = buffer.indexOf('\r\n');
      if (end >= 0) done(buffer.slice(0, end));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// State of private instances (.data/stack.json remembers ports so URLs stay the same across runs)

function readState(dataDir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, 'stack.json'), 'utf8'));
  } catch {
    return {};
  }
}

function writeState(dataDir, patch) {
  fs.mkdirSync(dataDir, { recursive: true });
  const next = { ...readState(dataDir), ...patch };
  fs.writeFileSync(path.join(dataDir, 'stack.json'), `${JSON.stringify(next, null, 2)}\n`);
}

// ---------------------------------------------------------------------------------------------
// Postgres from the system's binaries

/** The directory holding initdb, pg_ctl and postgres: the newest /usr/lib/postgresql/<v>/bin, else PATH. */
export function findPostgresBin({ pathEnv = process.env.PATH ?? '', libDir = '/usr/lib/postgresql' } = {}) {
  const complete = (dir) => ['initdb', 'pg_ctl', 'postgres'].every((b) => fs.existsSync(path.join(dir, b)));
  if (process.env.PG_BIN && complete(process.env.PG_BIN)) return process.env.PG_BIN;
  let versions = [];
  try {
    versions = fs
      .readdirSync(libDir)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    // no Debian-style install
  }
  for (const version of versions) {
    const dir = path.join(libDir, version, 'bin');
    if (complete(dir)) return dir;
  }
  const onPath = findOnPath('pg_ctl', pathEnv);
  if (onPath) {
    const dir = path.dirname(fs.realpathSync(onPath));
    if (complete(dir)) return dir;
  }
  return null;
}

/** postmaster.pid: line 1 the pid, line 4 the port. Null when there is no such file. */
export function readPostmasterPid(pgdata) {
  let text;
  try {
    text = fs.readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8');
  } catch {
    return null;
  }
  const lines = text.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  return { pid, port };
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function userExists(name) {
  return spawnSync('id', ['-u', name], { stdio: 'ignore' }).status === 0;
}

/** Runs a command as the postgres system user when we are root (initdb and postgres refuse root). */
function runAsPostgres(file, args, options = {}) {
  if (!isRoot()) return spawnSync(file, args, { encoding: 'utf8', ...options });
  if (commandExists('runuser')) {
    return spawnSync('runuser', ['-u', 'postgres', '--', file, ...args], { encoding: 'utf8', ...options });
  }
  const quoted = [file, ...args].map((a) => `'${String(a).replace(/'/g, "'\\''")}'`).join(' ');
  return spawnSync('su', ['-s', '/bin/sh', 'postgres', '-c', quoted], { encoding: 'utf8', ...options });
}

function postgresUserCanWrite(dir) {
  return runAsPostgres('test', ['-w', dir], { cwd: '/' }).status === 0;
}

/**
 * Where the private cluster lives: .data/pg, owned by the postgres user when we are root. When
 * that user cannot reach the checkout (e.g. one under /root), a folder under /var/tmp instead.
 */
function postgresRoot(dataDir) {
  const preferred = path.join(dataDir, 'pg');
  fs.mkdirSync(preferred, { recursive: true });
  if (!isRoot()) return preferred;
  if (!userExists('postgres')) {
    say('creating the system user "postgres" (Postgres refuses to run as root)');
    const made = spawnSync(
      'useradd',
      ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'],
      {
        stdio: 'inherit',
      },
    );
    if (made.status !== 0) {
      throw new StackError(
        'could not create a "postgres" system user; create one (useradd --system postgres) or set DATABASE_URL.',
      );
    }
  }
  spawnSync('chown', ['-R', 'postgres:', preferred]);
  spawnSync('chmod', ['700', preferred]);
  if (postgresUserCanWrite(preferred)) return preferred;
  const hash = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 12);
  const fallback = path.join('/var/tmp', `sprout-pg-${hash}`);
  fs.mkdirSync(fallback, { recursive: true });
  spawnSync('chown', ['-R', 'postgres:', fallback]);
  spawnSync('chmod', ['700', fallback]);
  say(`the postgres user cannot reach ${preferred}; keeping the cluster in ${fallback}`);
  return fallback;
}

const POSTGRES_HELP = [
  'No Postgres found: set DATABASE_URL to a Postgres 15+ database, or install the server binaries:',
  '  Debian/Ubuntu: apt-get install postgresql',
  '  macOS:         brew install postgresql@16',
  '  Docker:        docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16',
  '                 then DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres',
].join('\n');

async function startPrivatePostgres({ dataDir, database }) {
  const bin = findPostgresBin();
  if (!bin) throw new StackError(POSTGRES_HELP);
  const pgRoot = postgresRoot(dataDir);
  const pgdata = path.join(pgRoot, 'data');
  const logFile = path.join(pgRoot, 'postgres.log');
  const url = (port) => `postgres://postgres@127.0.0.1:${port}/${database}`;

  const stop = async () => {
    say('postgres: stopping the private instance');
    runAsPostgres(path.join(bin, 'pg_ctl'), ['-D', pgdata, '-m', 'fast', '-w', '-t', '60', 'stop'], {
      cwd: pgRoot,
    });
  };

  const running = readPostmasterPid(pgdata);
  if (running && processAlive(running.pid) && (await portAnswers(running.port))) {
    say(`postgres: reusing the private instance on 127.0.0.1:${running.port} (pid ${running.pid})`);
    await ensureDatabase(bin, running.port, database);
    return { url: url(running.port), stop };
  }

  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) {
    say(`postgres: initialising a private cluster in ${displayPath(pgdata)} (${bin})`);
    const init = runAsPostgres(
      path.join(bin, 'initdb'),
      ['-D', pgdata, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-instructions'],
      { cwd: pgRoot },
    );
    if (init.status !== 0) throw new StackError(`initdb failed:\n${init.stdout ?? ''}${init.stderr ?? ''}`);
  }

  const state = readState(dataDir);
  // Claimed until pg_ctl returns (Postgres listens by then): another checkout starting its own
  // Postgres at the same moment picks another port.
  const claim = await claimFreePort(state.postgresPort ?? 5433);
  const port = claim.port;
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    "-c unix_socket_directories=''",
    '-c max_connections=300',
    '-c shared_buffers=256MB',
    '-c synchronous_commit=off',
    '-c max_wal_size=4GB',
    '-c checkpoint_timeout=15min',
  ].join(' ');
  say(`postgres: starting the private instance on 127.0.0.1:${port}`);
  const started = runAsPostgres(
    path.join(bin, 'pg_ctl'),
    ['-D', pgdata, '-l', logFile, '-o', options, '-w', '-t', '120', 'start'],
    { cwd: pgRoot },
  );
  claim.release();
  if (started.status !== 0) {
    const tail = fs.existsSync(logFile)
      ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n')
      : '';
    throw new StackError(`pg_ctl start failed:\n${started.stdout ?? ''}${started.stderr ?? ''}\n${tail}`);
  }
  writeState(dataDir, { postgresPort: port, postgresData: pgdata });
  await ensureDatabase(bin, port, database);
  return { url: url(port), stop };
}

async function ensureDatabase(bin, port, database) {
  if (database === 'postgres') return;
  const psql = fs.existsSync(path.join(bin, 'psql')) ? path.join(bin, 'psql') : 'psql';
  const common = [
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-U',
    'postgres',
    '-d',
    'postgres',
    '-v',
    'ON_ERROR_STOP=1',
  ];
  const found = spawnSync(
    psql,
    [...common, '-tAc', `SELECT 1 FROM pg_database WHERE datname = '${database}'`],
    {
      encoding: 'utf8',
    },
  );
  if (found.status !== 0) throw new StackError(`could not query the private Postgres:\n${found.stderr}`);
  if (found.stdout.trim() === '1') return;
  say(`postgres: creating database "${database}"`);
  const created = spawnSync(psql, [...common, '-c', `CREATE DATABASE "${database}"`], { encoding: 'utf8' });
  if (created.status !== 0) throw new StackError(`could not create database ${database}:\n${created.stderr}`);
}

// ---------------------------------------------------------------------------------------------
// Redis from the system's redis-server

export function findRedisServer() {
  if (process.env.REDIS_SERVER_BIN && fs.existsSync(process.env.REDIS_SERVER_BIN))
    return process.env.REDIS_SERVER_BIN;
  return (
    findOnPath('redis-server') ??
    [
      '/usr/bin/redis-server',
      '/usr/local/bin/redis-server',
      '/opt/homebrew/bin/redis-server',
      '/usr/sbin/redis-server',
    ].find((p) => fs.existsSync(p)) ??
    null
  );
}

const REDIS_HELP = [
  'No redis-server found: set REDIS_URL to a Redis 6.2+ server, or install one:',
  '  Debian/Ubuntu: apt-get install redis-server',
  '  macOS:         brew install redis',
  '  Docker:        docker run -d -p 6379:6379 redis:7 --appendonly yes --maxmemory-policy noeviction',
  '                 then REDIS_URL=redis://127.0.0.1:6379',
].join('\n');

async function startPrivateRedis({ dataDir }) {
  const binary = findRedisServer();
  if (!binary) throw new StackError(REDIS_HELP);
  const dir = path.join(dataDir, 'redis');
  const pidFile = path.join(dir, 'redis.pid');
  fs.mkdirSync(dir, { recursive: true });
  const state = readState(dataDir);

  const stop = async () => {
    say('redis: stopping the private instance');
    const runningPid = Number.parseInt(fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8') : '', 10);
    if (!processAlive(runningPid)) return;
    process.kill(runningPid, 'SIGTERM'); // redis writes its append-only file and exits
    for (let i = 0; i < 100 && processAlive(runningPid); i += 1) await sleep(100);
  };

  const pid = Number.parseInt(fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8') : '', 10);
  if (state.redisPort && processAlive(pid) && (await redisCommand(state.redisPort, 'PING')) === '+PONG') {
    say(`redis: reusing the private instance on 127.0.0.1:${state.redisPort} (pid ${pid})`);
    return { url: `redis://127.0.0.1:${state.redisPort}`, stop };
  }

  // Claimed until redis-server answers PING (it listens then), as Postgres's port is.
  const claim = await claimFreePort(state.redisPort ?? 6380);
  const port = claim.port;
  try {
    await startRedisServer({ binary, dir, port, pidFile });
  } finally {
    claim.release();
  }
  writeState(dataDir, { redisPort: port });
  return { url: `redis://127.0.0.1:${port}`, stop };
}

async function startRedisServer({ binary, dir, port, pidFile }) {
  say(`redis: starting the private instance on 127.0.0.1:${port} (${binary})`);
  const started = spawnSync(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--maxmemory-policy',
      'noeviction',
      '--save',
      '',
      '--daemonize',
      'yes',
      '--pidfile',
      pidFile,
      '--logfile',
      path.join(dir, 'redis.log'),
    ],
    { encoding: 'utf8' },
  );
  if (started.status !== 0)
    throw new StackError(`redis-server failed to start:\n${started.stdout}${started.stderr}`);
  for (let i = 0; i < 100; i += 1) {
    if ((await redisCommand(port, 'PING')) === '+PONG') break;
    if (i === 99) {
      const log = fs.readFileSync(path.join(dir, 'redis.log'), 'utf8').split('\n').slice(-10).join('\n');
      throw new StackError(`redis-server did not answer PING on port ${port}:\n${log}`);
    }
    await sleep(100);
  }
}

// ---------------------------------------------------------------------------------------------
// Containers (tests, when a Docker daemon answers)

export function dockerAvailable() {
  if (!commandExists('docker') && !process.env.DOCKER_HOST) return false;
  if (!commandExists('docker')) return true;
  return spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
}

/** A child process owns the containers (testcontainers' reaper removes them if it dies). */
async function startContainers(which) {
  say(`docker: starting ${which.join(' and ')} with testcontainers`);
  const child = spawn(process.execPath, [path.join(ROOT, 'tools/stack/lib/containers.mjs'), ...which], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const urls = await new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      const end = buffer.indexOf('\n');
      if (end >= 0) {
        try {
          resolve(JSON.parse(buffer.slice(0, end)));
        } catch (error) {
          reject(error);
        }
      }
    });
    child.once('exit', (code) => reject(new StackError(`testcontainers failed (exit ${code}); see above`)));
  });
  return {
    ...urls,
    stop: async () => {
      say('docker: stopping the test containers');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(30_000)]);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Leases: every process using the private instances holds one (.data/leases/<pid>); the last one
// to let go stops them, so `npm test` finishing never pulls them from under a running `npm start`.

function leaseDir(dataDir) {
  return path.join(dataDir, 'leases');
}

function takeLease(dataDir) {
  fs.mkdirSync(leaseDir(dataDir), { recursive: true });
  fs.writeFileSync(path.join(leaseDir(dataDir), String(process.pid)), `${new Date().toISOString()}\n`);
}

/** Drops this process's lease and those of dead processes; returns the pids still holding one. */
export function releaseLease(dataDir) {
  const dir = leaseDir(dataDir);
  const others = [];
  let entries = [];
  try {
    entries = fs.readdirSync(dir);
  } catch {
    return others;
  }
  for (const name of entries) {
    const pid = Number.parseInt(name, 10);
    if (pid !== process.pid && processAlive(pid)) others.push(pid);
    else fs.rmSync(path.join(dir, name), { force: true });
  }
  return others;
}

// ---------------------------------------------------------------------------------------------

/**
 * Postgres and Redis for the stack: DATABASE_URL and REDIS_URL when set; for tests, containers
 * when Docker runs; otherwise private instances under .data/ (reused when already running).
 * stop() stops containers it started, and the private instances when no other live process
 * holds a lease on them.
 */
export async function resolveDataServices({ purpose, env = process.env, dataDir = DATA_DIR } = {}) {
  if (purpose !== 'start' && purpose !== 'test')
    throw new Error(`purpose must be 'start' or 'test', not ${purpose}`);
  let databaseUrl = env.DATABASE_URL || null;
  let redisUrl = env.REDIS_URL || null;
  const stops = [];
  const sources = { database: databaseUrl ? 'DATABASE_URL' : null, redis: redisUrl ? 'REDIS_URL' : null };
  if (databaseUrl) say('postgres: using DATABASE_URL');
  if (redisUrl) say('redis: using REDIS_URL');

  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop();
    stops.length = 0;
  };

  try {
    const missing = [!databaseUrl && 'postgres', !redisUrl && 'redis'].filter(Boolean);
    if (missing.length > 0 && purpose === 'test' && env.SPROUT_NO_DOCKER !== '1' && dockerAvailable()) {
      const containers = await startContainers(missing);
      stops.push(containers.stop);
      databaseUrl ??= containers.databaseUrl;
      redisUrl ??= containers.redisUrl;
      for (const name of missing) sources[name === 'postgres' ? 'database' : 'redis'] = 'testcontainers';
    }
    const privateStops = [];
    if (!databaseUrl || !redisUrl) {
      takeLease(dataDir);
      stops.push(async () => {
        const others = releaseLease(dataDir);
        if (others.length > 0) {
          say(`private postgres and redis: left running for ${others.length} other process(es) using them`);
          return;
        }
        for (const stop of privateStops.reverse()) await stop();
      });
    }
    if (!databaseUrl) {
      const pg = await startPrivatePostgres({
        dataDir,
        database: purpose === 'start' ? 'sprout' : 'postgres',
      });
      privateStops.push(pg.stop);
      databaseUrl = pg.url;
      sources.database = 'private';
    }
    if (!redisUrl) {
      const redis = await startPrivateRedis({ dataDir });
      privateStops.push(redis.stop);
      redisUrl = redis.url;
      sources.redis = 'private';
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { databaseUrl, redisUrl, sources, stop: stopAll };
}

/** A secret kept in .data/<name> (mode 0600), made on first use. Returns { value, created }. */
export function persistentSecret(name, { dataDir = DATA_DIR, bytes = 18 } = {}) {
  const file = path.join(dataDir, name);
  if (fs.existsSync(file)) return { value: fs.readFileSync(file, 'utf8').trim(), created: false, file };
  fs.mkdirSync(dataDir, { recursive: true });
  const value = randomBytes(bytes).toString('base64url');
  fs.writeFileSync(file, `${value}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return { value, created: true, file };
}
