// Postgres and Redis for a drill run. 'private': a redis-server and a Postgres cluster of the run's
// own, in a temp folder on loopback ports, so the Redis and Postgres restart drills can restart
// them (never the machine's shared ones). 'shared': a database of its own (created and dropped)
// on DATABASE_URL's server and a key prefix of its own on REDIS_URL; no restart drills then.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { runMigrations } from '@sprout/domain';
import { createTestDatabase } from '@sprout/testing';
import { databaseUrl as urlOf } from '../seed/bulk';

export type DataMode = 'private' | 'shared';

export interface DataServices {
  mode: DataMode;
  databaseUrl: string;
  redisUrl: string;
  /** BULLMQ_PREFIX of the services: every Redis key they write starts with it. */
  prefix: string;
  /** Why a restart drill cannot run here, or null when it can. */
  restartUnavailable: { redis: string | null; postgres: string | null };
  /** Stops the private redis-server, keeps it down `downMs`, starts it again on the same data. */
  restartRedis(downMs: number): Promise<void>;
  /** Stops the private Postgres (fast mode), keeps it down `downMs`, starts it again. */
  restartPostgres(downMs: number): Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function findOnPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/** initdb, pg_ctl and postgres: PG_BIN, the newest /usr/lib/postgresql/<v>/bin, else PATH. */
export function findPostgresBin(): string | null {
  const complete = (dir: string): boolean =>
    ['initdb', 'pg_ctl', 'postgres'].every((b) => fs.existsSync(path.join(dir, b)));
  if (process.env.PG_BIN && complete(process.env.PG_BIN)) return process.env.PG_BIN;
  let versions: string[] = [];
  try {
    versions = fs
      .readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    // no Debian-style install
  }
  for (const version of versions) {
    const dir = path.join('/usr/lib/postgresql', version, 'bin');
    if (complete(dir)) return dir;
  }
  const onPath = findOnPath('pg_ctl');
  return onPath && complete(path.dirname(fs.realpathSync(onPath)))
    ? path.dirname(fs.realpathSync(onPath))
    : null;
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** Postgres refuses to run as root: as root, its commands run as the postgres system user. */
function runPostgresCommand(file: string, args: string[]): { status: number | null; output: string } {
  const [command, commandArgs] = isRoot()
    ? ['runuser', ['-u', 'postgres', '--', file, ...args]]
    : [file, args];
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', cwd: '/' });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`${what} did not come up within ${timeoutMs / 1000} s`);
}

async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function startPrivate(log: (message: string) => void): Promise<DataServices> {
  const redisServer = findOnPath('redis-server');
  const pgBin = findPostgresBin();
  if (!redisServer)
    throw new Error('--data=private needs redis-server on PATH (apt-get install redis-server)');
  if (!pgBin)
    throw new Error('--data=private needs the Postgres server binaries (apt-get install postgresql)');
  if (isRoot() && spawnSync('id', ['-u', 'postgres'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(
      '--data=private as root needs a "postgres" system user (Postgres refuses to run as root)',
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprout-drills-'));
  const cleanups: Array<() => Promise<void>> = [async () => fs.rmSync(dir, { recursive: true, force: true })];
  const stop = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };

  try {
    // Redis with an append-only file, so a restart keeps the queues as a production Redis would.
    const redisPort = await freePort();
    const redisDir = path.join(dir, 'redis');
    fs.mkdirSync(redisDir);
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    let redis: ChildProcess | null = null;
    const startRedis = async (): Promise<void> => {
      const logFd = fs.openSync(path.join(dir, 'redis.log'), 'a');
      redis = spawn(
        redisServer,
        [
          '--port',
          String(redisPort),
          '--bind',
          '127.0.0.1',
          '--dir',
          redisDir,
          '--appendonly',
          'yes',
          '--appendfsync',
          'everysec',
          '--save',
          '',
          '--daemonize',
          'no',
          '--protected-mode',
          'no',
        ],
        { stdio: ['ignore', logFd, logFd] },
      );
      fs.closeSync(logFd);
      await waitFor('the private redis-server', () => redisAnswers(redisUrl), 20_000);
    };
    const stopRedis = async (): Promise<void> => {
      const child = redis;
      redis = null;
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    };
    await startRedis();
    cleanups.push(stopRedis);
    log(`private redis-server on 127.0.0.1:${redisPort}`);

    // Postgres: a cluster of its own (fsync off: a drill restarts it cleanly, never pulls the power).
    const pgPort = await freePort();
    const pgData = path.join(dir, 'pg');
    if (isRoot()) {
      spawnSync('chown', ['postgres:', dir]);
      fs.chmodSync(dir, 0o755);
    }
    const initdb = runPostgresCommand(path.join(pgBin, 'initdb'), [
      '-D',
      pgData,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]);
    if (initdb.status !== 0) throw new Error(`initdb failed:\n${initdb.output}`);
    const pgLog = path.join(dir, 'postgres.log');
    const options = `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300`;
    const startPostgres = (): void => {
      const started = runPostgresCommand(path.join(pgBin, 'pg_ctl'), [
        '-D',
        pgData,
        '-l',
        pgLog,
        '-w',
        '-t',
        '60',
        '-o',
        options,
        'start',
      ]);
      if (started.status !== 0) throw new Error(`pg_ctl start failed:\n${started.output}`);
    };
    const stopPostgres = (): void => {
      runPostgresCommand(path.join(pgBin, 'pg_ctl'), ['-D', pgData, '-m', 'fast', '-w', '-t', '60', 'stop']);
    };
    startPostgres();
    cleanups.push(async () => stopPostgres());
    const adminUrl = `postgres://postgres@127.0.0.1:${pgPort}/postgres`;
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE sprout_drills');
    await admin.end();
    const databaseUrl = urlOf(adminUrl, 'sprout_drills');
    await runMigrations(databaseUrl);
    log(`private postgres ${path.basename(path.dirname(pgBin))} on 127.0.0.1:${pgPort} (${dir})`);

    return {
      mode: 'private',
      databaseUrl,
      redisUrl,
      prefix: 'sprout',
      restartUnavailable: { redis: null, postgres: null },
      async restartRedis(downMs) {
        await stopRedis();
        await sleep(downMs);
        await startRedis();
      },
      async restartPostgres(downMs) {
        stopPostgres();
        await sleep(downMs);
        startPostgres();
        await waitFor('the private postgres', () => postgresAnswers(databaseUrl), 30_000);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startShared(log: (message: string) => void): Promise<DataServices> {
  process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const database = await createTestDatabase();
  // The drill counts with its own pool; the services open theirs.
  await database.dataSource.destroy();
  const prefix = `drills${randomBytes(5).toString('hex')}`;
  log(`database ${new URL(database.url).pathname.slice(1)} on DATABASE_URL's server; Redis prefix ${prefix}`);
  const why = 'needs --data=private (the shared server is never restarted: others use it)';
  return {
    mode: 'shared',
    databaseUrl: database.url,
    redisUrl,
    prefix,
    restartUnavailable: { redis: why, postgres: why },
    restartRedis: () => Promise.reject(new Error(`a Redis restart ${why}`)),
    restartPostgres: () => Promise.reject(new Error(`a Postgres restart ${why}`)),
    async stop() {
      await database.drop().catch(() => undefined);
      const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
      try {
        let cursor = '0';
        do {
          const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
          cursor = next;
          if (keys.length > 0) await client.unlink(...keys);
        } while (cursor !== '0');
      } finally {
        client.disconnect();
      }
    },
  };
}

export function startDataServices(mode: DataMode, log: (message: string) => void): Promise<DataServices> {
  return mode === 'private' ? startPrivate(log) : startShared(log);
}
