// The pipeline benchmark's processes: each service in a process of its own
// (pipeline-service.mjs), and what they, their Postgres backends and Redis use (CPU, RSS), sampled
// from /proc.
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { findFreePort } from '@sprout/platform';
import { round, sleep } from './harness';
import { assertLoopbackTwilio } from './sms-guard';

export interface Service {
  name: string;
  port: number;
  child: ChildProcess;
  ask(message: Record<string, unknown>): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export const startService = async (
  kind: 'sms-gateway' | 'ai-responder' | 'api-gateway' | 'edge' | 'bare',
  name: string,
  env: Record<string, string>,
  deferred = false,
): Promise<Service & { go(): Promise<void> }> => {
  const port = env.PORT === undefined ? await findFreePort() : Number(env.PORT);
  const childEnv = { ...process.env, ...env, PORT: String(port), BENCH_DEFER_START: deferred ? '1' : '0' };
  assertLoopbackTwilio(childEnv);
  const child = fork(path.join(__dirname, 'pipeline-service.mjs'), [kind], {
    env: childEnv,
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

export interface Usage {
  cpuPercent: number;
  cpuMs: number;
  rssMbPeak: number;
  rssMbEnd: number;
}

/** Postgres backends serving the benchmark's database (their title names it), by pid. */
const postgresBackends = (database: string): number[] => {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.startsWith('postgres') || cmdline.includes(': postgres ')) {
        if (cmdline.includes(` ${database} `)) pids.push(Number(entry));
      }
    } catch {
      // gone meanwhile
    }
  }
  return pids;
};

/**
 * Samples the processes' CPU and RSS every 250 ms until stopped (CPU% of one core over the span),
 * plus "postgres": the sum over the backends of `database` (each counted from when it was first
 * seen) and "redis" (shared with anything else on this Redis).
 */
export const sampleUsage = (database: string, processes: Record<string, number>) => {
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
      for (const pid of postgresBackends(database)) {
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
export const dataPids = (): Record<string, number> => {
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
export const cpuPerMessage = (usage: Record<string, Usage>, messages: number): Record<string, number> => {
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
