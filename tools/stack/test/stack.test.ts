import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

// tools/stack/lib/*.mjs run before `npm install`, as plain Node ESM: these tests run them the same
// way, in a child process, and read back what they print.
const LIB = path.resolve(__dirname, '../lib');

function runModule(code: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', code],
      { env: { ...process.env, ...env }, timeout: 120_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    );
  });
}

/** The last line of stdout, parsed (the modules' own progress lines come before it). */
async function evaluate<T>(body: string, env?: NodeJS.ProcessEnv): Promise<T> {
  const out = await runModule(
    `import * as stack from '${LIB}/stack.mjs';\nimport * as report from '${LIB}/test-report.mjs';\n` +
      `const result = await (async () => { ${body} })();\nprocess.stdout.write('\\n' + JSON.stringify(result) + '\\n');`,
    env,
  );
  const lines = out.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? 'null') as T;
}

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755); // the postgres system user must reach it when tests run as root
  return dir;
}

describe('dependencyState', () => {
  let root: string;
  beforeEach(() => {
    root = tempDir('sprout-deps-');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const write = (file: string, value: unknown, mtime?: Date) => {
    const full = path.join(root, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, JSON.stringify(value));
    if (mtime) fs.utimesSync(full, mtime, mtime);
  };
  const state = () =>
    evaluate<{ install: boolean; reason: string }>(`return stack.dependencyState(${JSON.stringify(root)});`);
  const lock = (version: string) => ({
    packages: {
      '': { name: 'x' },
      'node_modules/pg': { version },
      'node_modules/@esbuild/darwin-arm64': { version: '1.0.0', optional: true },
      'node_modules/@sprout/domain': { resolved: 'libs/domain', link: true },
    },
  });

  it('installs when node_modules is missing', async () => {
    write('package-lock.json', lock('8.0.0'));
    await expect(state()).resolves.toMatchObject({ install: true, reason: 'node_modules is missing' });
  });

  it('does nothing when node_modules is newer than the lock file', async () => {
    write('package-lock.json', lock('8.0.0'), new Date(Date.now() - 60_000));
    write('node_modules/.package-lock.json', lock('7.0.0'));
    await expect(state()).resolves.toMatchObject({ install: false });
  });

  it('compares packages when the lock file is newer, ignoring other platforms and workspace links', async () => {
    write('node_modules/.package-lock.json', {
      packages: { 'node_modules/pg': { version: '8.0.0' }, 'node_modules/@sprout/domain': { link: true } },
    });
    write('package-lock.json', lock('8.0.0'), new Date(Date.now() + 60_000));
    await expect(state()).resolves.toMatchObject({
      install: false,
      reason: 'node_modules matches package-lock.json',
    });
    write('package-lock.json', lock('8.1.0'), new Date(Date.now() + 60_000));
    const changed = await state();
    expect(changed.install).toBe(true);
    expect(changed.reason).toContain('node_modules/pg (8.0.0 -> 8.1.0)');
  });
});

describe('ports and postmaster.pid', () => {
  it('finds the next free port after one in use', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const taken = (server.address() as net.AddressInfo).port;
    try {
      const free = await evaluate<number>(`return stack.findFreePort(${taken});`);
      expect(free).toBeGreaterThan(taken);
      expect(await evaluate<boolean>(`return stack.portIsFree(${taken});`)).toBe(false);
      expect(await evaluate<boolean>(`return stack.portAnswers(${taken});`)).toBe(true);
    } finally {
      server.close();
    }
  });

  it("reserves each of a stack's ports once, even when the default ones are busy", async () => {
    // The layout of `npm start` (six services from base, the sandbox at base + 10) shifted to a free
    // block, with the six service defaults taken: each service moves up, and none lands on the
    // sandbox's port (they used to: the one moved to base + 10 died with EADDRINUSE).
    const base = await freeBlock(40);
    const busy = await Promise.all([0, 1, 2, 3, 4, 5, 12].map((i) => listenOn(base + i)));
    try {
      const wanted = [
        { name: 'edge', port: base + 30, fixed: true },
        ...[0, 1, 2, 3, 4, 5].map((i) => ({ name: `service-${i}`, port: base + i })),
        { name: 'fake-twilio', port: base + 10 },
      ];
      const result = await evaluate<{ ports: Record<string, number>; heldWhileReserved: boolean[] }>(
        `const r = await stack.reserveStackPorts(${JSON.stringify(wanted)});
         const heldWhileReserved = await Promise.all(Object.values(r.ports).map(async (p) => !(await stack.portIsFree(p))));
         await r.releaseAll();
         return { ports: r.ports, heldWhileReserved };`,
      );
      const ports = Object.values(result.ports);
      expect(Object.keys(result.ports)).toHaveLength(wanted.length);
      expect(new Set(ports).size).toBe(ports.length);
      const taken = busy.map((server) => (server.address() as net.AddressInfo).port);
      for (const port of ports) expect(taken).not.toContain(port);
      expect(result.ports['edge']).toBe(base + 30);
      expect(result.ports['fake-twilio']).toBe(base + 10);
      expect(result.heldWhileReserved.every(Boolean)).toBe(true);
      expect(await evaluate<boolean>(`return stack.portIsFree(${base + 10});`)).toBe(true);

      // A fixed port that is busy fails with the hint instead of moving.
      await expect(
        evaluate(
          `return stack.reserveStackPorts([{ name: 'edge', port: ${base}, fixed: true, hint: 'run with PORT=<another port>' }]);`,
        ),
      ).rejects.toThrow(`port ${base} (edge) is already in use; run with PORT=<another port>`);
    } finally {
      await Promise.all(busy.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });

  it('never gives two port pickers started at once the same port, nor one a stack still starting holds', async () => {
    // Separate processes, as two checkouts' `npm start` are, on one claims folder.
    const claimsDir = tempDir('sprout-port-claims-');
    const base = await freeBlock(30);
    const wanted = [0, 1, 2, 3, 4, 5].map((i) => ({ name: `service-${i}`, port: base + i }));
    const dir = JSON.stringify(claimsDir);
    // Each picker reserves the stack's ports, then closes its sockets as `npm start` does right
    // before each child starts (the child has not bound yet), reports, and holds on until stopped.
    const picker = () =>
      holder(
        `const r = await stack.reserveStackPorts(${JSON.stringify(wanted)}, { claimsDir: ${dir} });
         for (const name of Object.keys(r.ports)) await r.release(name);
         return { result: Object.values(r.ports), stop: () => r.releaseAll() };`,
      );
    const pickers = [picker(), picker(), picker()];
    try {
      const atOnce = await Promise.all(pickers.map((p) => p.ports));
      // One more while their ports are still free sockets-wise (no child bound them yet).
      pickers.push(picker());
      const later = await pickers[3]!.ports;
      const all = [...atOnce, later].flat();
      expect(all).toHaveLength(24);
      expect(new Set(all).size).toBe(24);
    } finally {
      await Promise.all(pickers.map((p) => p.stop()));
    }
    // Released at the end: the ports are claimable again.
    expect(fs.readdirSync(claimsDir)).toEqual([]);

    // Postgres and Redis ports (claimFreePort): three at once from the same start, three ports.
    const claimers = [0, 1, 2].map(() =>
      holder(
        `const c = await stack.claimFreePort(${base + 20}, { dir: ${dir} });
         return { result: [c.port], stop: () => c.release() };`,
      ),
    );
    try {
      const claimed = (await Promise.all(claimers.map((c) => c.ports))).flat();
      expect(new Set(claimed).size).toBe(3);
    } finally {
      await Promise.all(claimers.map((c) => c.stop()));
    }
    fs.rmSync(claimsDir, { recursive: true, force: true });
  });

  it('reads the pid and port from postmaster.pid', async () => {
    const dir = tempDir('sprout-pid-');
    try {
      fs.writeFileSync(path.join(dir, 'postmaster.pid'), '4242\n/data\n1700000000\n5433\n\n127.0.0.1\n');
      expect(await evaluate(`return stack.readPostmasterPid(${JSON.stringify(dir)});`)).toEqual({
        pid: 4242,
        port: 5433,
      });
      expect(
        await evaluate(`return stack.readPostmasterPid(${JSON.stringify(path.join(dir, 'none'))});`),
      ).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('jest report summary', () => {
  it('prints the closing line with skipped tests only when there are some', async () => {
    const line = (r: object) => evaluate<{ line: string }>(`return report.summarize(${JSON.stringify(r)});`);
    await expect(line({ numPassedTests: 12, numFailedTests: 0, numPendingTests: 0 })).resolves.toMatchObject({
      line: 'tests: 12 passed, 0 failed',
    });
    await expect(
      line({ numPassedTests: 3, numFailedTests: 1, numPendingTests: 2, numTodoTests: 1 }),
    ).resolves.toMatchObject({
      line: 'tests: 3 passed, 1 failed, 3 skipped',
    });
    await expect(
      line({ numPassedTests: 3, numFailedTests: 0, numRuntimeErrorTestSuites: 2 }),
    ).resolves.toMatchObject({
      line: 'tests: 3 passed, 2 failed',
      brokenSuites: 2,
    });
  });

  it('runs every workspace package that has a Jest config', async () => {
    const projects = await evaluate<string[]>(`return report.jestProjects();`);
    expect(projects).toEqual(
      expect.arrayContaining(['tools', 'libs/domain', 'services/api-gateway', 'web-admin']),
    );
  });
});

describe('resolveDataServices', () => {
  it('uses DATABASE_URL and REDIS_URL when both are set, starting nothing', async () => {
    const result = await evaluate<{ databaseUrl: string; redisUrl: string; sources: object }>(
      `const s = await stack.resolveDataServices({ purpose: 'test', env: { DATABASE_URL: 'postgres://db.example/x', REDIS_URL: 'redis://r.example:6379' } });
       return { databaseUrl: s.databaseUrl, redisUrl: s.redisUrl, sources: s.sources };`,
    );
    expect(result).toEqual({
      databaseUrl: 'postgres://db.example/x',
      redisUrl: 'redis://r.example:6379',
      sources: { database: 'DATABASE_URL', redis: 'REDIS_URL' },
    });
  });

  it('starts private Postgres and Redis under the data folder, shares them, and the last user stops them', async () => {
    const dataDir = tempDir('sprout-data-');
    const env = { SPROUT_NO_DOCKER: '1' };
    const options = `{ env: { SPROUT_NO_DOCKER: '1' }, dataDir: ${JSON.stringify(dataDir)} }`;
    // A: like a running `npm start`: holds the instances until its stdin closes, then stops.
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import * as stack from '${LIB}/stack.mjs';
         const s = await stack.resolveDataServices({ purpose: 'start', ...${options} });
         process.stdout.write('\\n' + JSON.stringify({ databaseUrl: s.databaseUrl, redisUrl: s.redisUrl, sources: s.sources }) + '\\n');
         process.stdin.resume();
         process.stdin.on('end', async () => { await s.stop(); process.exit(0); });`,
      ],
      { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const holderExited = new Promise((resolve) => holder.once('exit', resolve));
    try {
      const first = await new Promise<{ databaseUrl: string; redisUrl: string; sources: object }>(
        (resolve, reject) => {
          let out = '';
          holder.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString('utf8');
            const line = out.split('\n').find((l) => l.startsWith('{'));
            if (line && out.endsWith('\n'))
              resolve(JSON.parse(line) as { databaseUrl: string; redisUrl: string; sources: object });
          });
          holder.once('exit', (code) => reject(new Error(`holder exited early (${code})`)));
        },
      );
      expect(first.sources).toEqual({ database: 'private', redis: 'private' });
      expect(first.databaseUrl).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/sprout$/);

      const client = new Client({ connectionString: first.databaseUrl });
      await client.connect();
      const version = await client.query<{ server_version: string }>('SHOW server_version');
      await client.end();
      expect(version.rows[0]?.server_version).toMatch(/^\d+/);
      const redisPort = Number(new URL(first.redisUrl).port);
      const pgPort = Number(new URL(first.databaseUrl).port);
      expect(
        await evaluate<string | null>(
          `return stack.redisCommand(${redisPort}, 'CONFIG GET maxmemory-policy');`,
        ),
      ).toBe('*2');
      expect(fs.existsSync(path.join(dataDir, 'redis', 'appendonlydir'))).toBe(true);

      // B: like `npm test` while `npm start` runs: reuses both, and its stop() leaves them to A.
      const second = await evaluate<{ databaseUrl: string; redisUrl: string }>(
        `const s = await stack.resolveDataServices({ purpose: 'test', ...${options} });
         await s.stop();
         return { databaseUrl: s.databaseUrl, redisUrl: s.redisUrl };`,
        env,
      );
      expect(second.redisUrl).toBe(first.redisUrl);
      expect(second.databaseUrl).toBe(first.databaseUrl.replace(/\/sprout$/, '/postgres'));
      expect(await evaluate<string | null>(`return stack.redisCommand(${redisPort}, 'PING');`)).toBe('+PONG');
      expect(await evaluate<boolean>(`return stack.portAnswers(${pgPort});`)).toBe(true);

      // A lets go last: both stop.
      holder.stdin.end();
      await holderExited;
      expect(await evaluate<boolean>(`return stack.portAnswers(${pgPort});`)).toBe(false);
      expect(await evaluate<boolean>(`return stack.portAnswers(${redisPort});`)).toBe(false);

      // C: starts them again on the existing cluster and, alone, stops them.
      const third = await evaluate<{ answeredWhileRunning: boolean; answersAfterStop: boolean }>(
        `const s = await stack.resolveDataServices({ purpose: 'start', ...${options} });
         const port = Number(new URL(s.databaseUrl).port);
         const answeredWhileRunning = await stack.portAnswers(port);
         await s.stop();
         return { answeredWhileRunning, answersAfterStop: await stack.portAnswers(port) };`,
        env,
      );
      expect(third).toEqual({ answeredWhileRunning: true, answersAfterStop: false });
    } finally {
      holder.kill('SIGKILL');
      await stopPrivateServices(dataDir);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * A process of its own running `setup` (the body of an async function over stack.mjs returning
 * { result: number[], stop }): its result, and stop() to run its stop and let it exit.
 */
function holder(setup: string): { ports: Promise<number[]>; stop: () => Promise<void> } {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import * as stack from '${LIB}/stack.mjs';
       const held = await (async () => { ${setup} })();
       process.stdout.write(JSON.stringify(held.result) + '\\n');
       process.stdin.resume();
       process.stdin.on('end', async () => { await held.stop(); process.exit(0); });`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ports = new Promise<number[]>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0] ?? '[]') as number[]);
    });
    child.once('exit', (code) => reject(new Error(`holder exited (${code}) before answering`)));
  });
  return {
    ports,
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

function listenOn(port: number, host = '127.0.0.1'): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => resolve(server));
  });
}

/** The first port of `size` consecutive ports free on this machine, below the ephemeral range. */
async function freeBlock(size: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const base = 20_000 + Math.floor(Math.random() * 10_000);
    const servers: net.Server[] = [];
    try {
      for (let i = 0; i < size; i += 1) servers.push(await listenOn(base + i, '0.0.0.0'));
      return base;
    } catch {
      // a port of this block is in use: try another block
    } finally {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  }
  throw new Error(`no block of ${size} free ports found`);
}

/** Stops the instances a test left running: Postgres by its postmaster.pid, Redis by its pid file. */
async function stopPrivateServices(dataDir: string): Promise<void> {
  const pids: Array<[number, NodeJS.Signals]> = [];
  const postmaster = path.join(dataDir, 'pg', 'data', 'postmaster.pid');
  // SIGINT is Postgres' fast shutdown; Redis saves and exits on SIGTERM.
  if (fs.existsSync(postmaster))
    pids.push([Number(fs.readFileSync(postmaster, 'utf8').split('\n')[0]), 'SIGINT']);
  const redisPid = path.join(dataDir, 'redis', 'redis.pid');
  if (fs.existsSync(redisPid)) pids.push([Number(fs.readFileSync(redisPid, 'utf8')), 'SIGTERM']);
  for (const [pid, signal] of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
  for (let i = 0; i < 100 && pids.some(([pid]) => alive(pid)); i += 1)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
