// npm test: lint, typecheck and build (nx, cached), prettier, knip, then one Jest run across every
// package against a real Postgres and Redis. The last line is `tests: N passed, N failed`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { missingOptionalEntries, readLock } from './lib/lock-platforms.mjs';
import {
  DATA_DIR,
  ROOT,
  StackError,
  displayPath,
  ensureDependencies,
  resolveDataServices,
  say,
} from './lib/stack.mjs';
import { NPX, formatDuration, runStep } from './lib/proc.mjs';
import { jestProjects, summarize } from './lib/test-report.mjs';

const RESULTS_FILE = path.join(DATA_DIR, 'test-results.json');
const phases = [];

function record(name, ms, ok) {
  phases.push({ name, ms, ok });
  say(`${name}: ${ok ? 'ok' : 'FAILED'} in ${formatDuration(ms)}`);
}

/** `npm ci` accepts the lock everywhere only when every optional platform package has an entry. */
function checkLockFile() {
  const missing = missingOptionalEntries(readLock(path.join(ROOT, 'package-lock.json')));
  if (missing.length > 0) {
    throw new StackError(
      `package-lock.json lacks the entries of ${missing.length} optional platform package(s) ` +
        `(${missing
          .slice(0, 3)
          .map((m) => m.name)
          .join(', ')}...), so npm ci refuses it on other ` +
        'machines. Run `npm run lock:platforms` and commit package-lock.json.',
    );
  }
  say('package-lock.json: every optional platform package has an entry');
}

/** Chromium for the browser tests: CHROMIUM_PATH, /usr/bin/chromium, else installed (root on Debian). */
function ensureChromium() {
  if (process.env.CHROMIUM_PATH) {
    if (!fs.existsSync(process.env.CHROMIUM_PATH))
      throw new StackError(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist`);
    return;
  }
  if (fs.existsSync('/usr/bin/chromium')) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !fs.existsSync('/etc/debian_version')) {
    throw new StackError(
      [
        'The browser tests need Chromium, and none was found. Install it, or point CHROMIUM_PATH at one:',
        '  Debian/Ubuntu: sudo apt-get install chromium',
        '  macOS:         brew install --cask chromium, then CHROMIUM_PATH=/Applications/Chromium.app/Contents/MacOS/Chromium',
      ].join('\n'),
    );
  }
  say('chromium: not installed; installing the Debian package (apt-get install chromium)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0)
      throw new StackError(`apt-get ${args.join(' ')} failed; install chromium by hand and rerun`);
  }
  if (!fs.existsSync('/usr/bin/chromium'))
    throw new StackError('chromium was installed but /usr/bin/chromium is missing');
}

async function main() {
  const started = Date.now();
  let t = Date.now();
  checkLockFile();
  ensureDependencies();
  ensureChromium();
  record('setup (dependencies, chromium)', Date.now() - t, true);

  t = Date.now();
  const services = await resolveDataServices({ purpose: 'test' });
  record(
    `postgres (${services.sources.database}) and redis (${services.sources.redis})`,
    Date.now() - t,
    true,
  );
  const env = { ...process.env, DATABASE_URL: services.databaseUrl, REDIS_URL: services.redisUrl };
  if (!env.CHROMIUM_PATH && fs.existsSync('/usr/bin/chromium')) env.CHROMIUM_PATH = '/usr/bin/chromium';

  let report = null;
  try {
    const nx = runStep(NPX, ['nx', 'run-many', '-t', 'lint', 'typecheck', 'build', '--outputStyle=static'], {
      env,
    });
    record('lint, typecheck, build (nx)', nx.ms, nx.ok);

    // Each package lints its own files; these root files belong to none.
    const rootLint = runStep(
      NPX,
      ['eslint', 'eslint.config.mjs', 'eslint.boundaries.mjs', 'jest.preset.cjs'],
      { env },
    );
    record('eslint (root config files)', rootLint.ms, rootLint.ok);

    const prettier = runStep(NPX, ['prettier', '--check', '.', '--log-level', 'warn'], { env });
    record('prettier --check', prettier.ms, prettier.ok);

    const knip = runStep(NPX, ['knip', '--no-progress'], { env });
    record('knip (unused files and dependencies)', knip.ms, knip.ok);

    fs.mkdirSync(DATA_DIR, { recursive: true });
    fs.rmSync(RESULTS_FILE, { force: true });
    const projects = jestProjects();
    // Three workers on two cores: the browser tests and the short drills spend much of their time
    // waiting (for the page, for BullMQ to take back a killed worker's job), and a third file keeps
    // the cores busy meanwhile. SPROUT_TEST_WORKERS sets another number.
    const workers = process.env.SPROUT_TEST_WORKERS || '3';
    say(`jest: one run over ${projects.length} packages, ${workers} workers`);
    const jest = runStep(
      NPX,
      [
        'jest',
        '--ci',
        '--projects',
        ...projects,
        '--json',
        '--outputFile',
        RESULTS_FILE,
        '--maxWorkers',
        workers,
        // Longest files first (Jest's own order needs a cache of the last run, which CI lacks).
        '--testSequencer',
        path.join(ROOT, 'tools', 'stack', 'test', 'jest-sequencer.cjs'),
        '--forceExit',
      ],
      { env },
    );
    if (fs.existsSync(RESULTS_FILE)) report = JSON.parse(fs.readFileSync(RESULTS_FILE, 'utf8'));
    record('jest', jest.ms, jest.ok && report !== null);
  } finally {
    await services.stop();
  }

  process.stdout.write('\n');
  for (const p of phases)
    process.stdout.write(`  ${p.ok ? 'ok    ' : 'FAILED'} ${p.name} (${formatDuration(p.ms)})\n`);
  process.stdout.write(
    `  total ${formatDuration(Date.now() - started)}; Jest report: ${displayPath(RESULTS_FILE)}\n`,
  );

  const summary = report
    ? summarize(report)
    : { passed: 0, failed: 0, skipped: 0, brokenSuites: 0, line: 'tests: 0 passed, 0 failed' };
  if (summary.brokenSuites > 0)
    process.stdout.write(`  ${summary.brokenSuites} test file(s) failed to run (counted as failed)\n`);
  if (summary.passed + summary.failed === 0) process.stdout.write('  no test ran: that is a failure\n');
  const ok = phases.every((p) => p.ok) && summary.failed === 0 && summary.passed > 0;
  process.stdout.write(`${summary.line}\n`);
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  process.stderr.write(
    `npm test failed: ${error instanceof StackError ? error.message : (error?.stack ?? error)}\n`,
  );
  process.stdout.write('tests: 0 passed, 0 failed\n');
  process.exitCode = 1;
});
