// Child processes for the tools scripts: timed phases, prefixed service logs, readiness polling.
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { ROOT, StackError, say } from './stack.mjs';

export const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

export function formatDuration(ms) {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/** Runs a command to completion with inherited output; returns { ok, status, ms }. */
export function runStep(command, args, { env = process.env, cwd = ROOT } = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
  return { ok: result.status === 0, status: result.status ?? 1, ms: Date.now() - started };
}

/** Like runStep, but a failure stops the script with the given message. */
export function runOrFail(label, command, args, options) {
  const result = runStep(command, args, options);
  if (!result.ok) throw new StackError(`${label} failed (exit ${result.status}); see the output above`);
  return result.ms;
}

/**
 * Builds @sprout/tools and the libraries it runs (domain's migrations among them). nx replays
 * unchanged packages from its cache, so this costs seconds when nothing changed.
 */
export function ensureToolsBuilt() {
  say('building @sprout/tools and its libraries (nx, cached)');
  return runOrFail('building @sprout/tools', NPX, [
    'nx',
    'run',
    '@sprout/tools:build',
    '--outputStyle=static',
  ]);
}

const COLORS = [36, 35, 33, 32, 34, 31, 96, 95];
const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** A pino JSON line as "HH:MM:SS LEVEL message"; other lines unchanged. */
export function formatLogLine(line) {
  if (!line.startsWith('{')) return line;
  try {
    const entry = JSON.parse(line);
    if (typeof entry.msg !== 'string') return line;
    const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '';
    const level = LEVELS[entry.level] ?? String(entry.level ?? '');
    const error = entry.err?.message ? ` (${entry.err.message})` : '';
    return `${time} ${level.padEnd(5)} ${entry.msg}${error}`.trim();
  } catch {
    return line;
  }
}

/** Spawns a long-running child whose output lines are prefixed with its name. */
export function startChild(name, command, args, { env, cwd = ROOT, index = 0, width = name.length } = {}) {
  const color = COLORS[index % COLORS.length];
  const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
  const prefix = useColor ? `\x1b[${color}m${name.padEnd(width)}\x1b[0m |` : `${name.padEnd(width)} |`;
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n')) >= 0) {
        process.stdout.write(`${prefix} ${formatLogLine(buffer.slice(0, end))}\n`);
        buffer = buffer.slice(end + 1);
      }
    });
    stream.on('end', () => {
      if (buffer) process.stdout.write(`${prefix} ${formatLogLine(buffer)}\n`);
    });
  }
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return child;
}

/** One GET; resolves with the status code, or 0 when nothing answers. */
export function httpStatus(url, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/** Polls until url answers 200, the child exits, or the time runs out. */
export async function waitForReady(url, { child, timeoutMs = 180_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let exited = null;
  child?.exited.then((result) => {
    exited = result;
  });
  for (;;) {
    if (exited) return { ok: false, reason: `exited (code ${exited.code ?? exited.signal})` };
    if ((await httpStatus(url)) === 200) return { ok: true };
    if (Date.now() > deadline) return { ok: false, reason: `not ready after ${formatDuration(timeoutMs)}` };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** SIGTERM, then SIGKILL after graceMs. */
export async function stopChild(child, graceMs = 30_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}
