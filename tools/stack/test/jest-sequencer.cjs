// The order of `npm test`'s one Jest run over every package (passed as --testSequencer): the longest
// files first, so that the two workers finish together instead of one of them running a long file
// alone at the end. Jest's own order needs its cache of the last run's durations, which a fresh
// checkout (CI) lacks; it then goes by file size, and the short drills (a small file that runs for
// minutes) came last. Here a file's expected duration is Jest's cached one when there is one, else
// the table below (from CI's run of 2026-11-24).
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Seconds per file in CI's `npm test` (2 workers, 2 cores), rounded; shorter files are left to Jest. */
const KNOWN_SECONDS = {
  // 73 s on CI, 135 s in a loaded run; it mostly waits (for BullMQ to take back a killed worker's
  // job), so it is best started first, beside files that need the CPU.
  'tools/drills/test/drills.test.ts': 135,
  'e2e/test/monitoring-pages.test.ts': 118,
  'e2e/test/messages-page.test.ts': 110,
  'e2e/test/users-page.test.ts': 100,
  'e2e/test/testers.test.ts': 93,
  'e2e/test/model-management.test.ts': 93,
  'e2e/test/surveys-page.test.ts': 90,
  'e2e/test/simulator.test.ts': 85,
  'e2e/test/admin-console.test.ts': 75,
  'e2e/test/public-site.test.ts': 70,
  'e2e/test/sms-path.test.ts': 40,
  'e2e/test/content-security-policy.test.ts': 40,
  'e2e/test/image-monitoring.test.ts': 35,
  'e2e/test/walking-skeleton.test.ts': 25,
};

class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    // Milliseconds: Jest's cached duration of the file (a machine that ran it before), else the table.
    const expected = new Map();
    for (const test of tests) {
      const known = KNOWN_SECONDS[path.relative(ROOT, test.path).split(path.sep).join('/')];
      const ms = this.time(test) ?? (known === undefined ? undefined : known * 1000);
      if (ms !== undefined) expected.set(test, ms);
    }
    const timed = tests.filter((t) => expected.has(t)).sort((a, b) => expected.get(b) - expected.get(a));
    // Jest's order (by file size, with nothing cached) for files neither cached nor in the table.
    const rest = super.sort(tests.filter((t) => !expected.has(t)));
    return [...timed, ...rest];
  }
}

module.exports = LongestFirstSequencer;
