// Pieces of `npm test` that are worth testing on their own.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './stack.mjs';

/** Every workspace package that has a Jest config. */
export function jestProjects(root = ROOT) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const dirs = [];
  for (const pattern of manifest.workspaces ?? []) {
    const candidates = pattern.endsWith('/*')
      ? fs
          .readdirSync(path.join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => path.join(pattern.slice(0, -2), d.name))
      : [pattern];
    for (const dir of candidates) {
      if (fs.existsSync(path.join(root, dir, 'jest.config.cjs'))) dirs.push(dir);
    }
  }
  return dirs.sort();
}

/** The closing counts from Jest's JSON report. */
export function summarize(report) {
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A suite that cannot even load (syntax error, failing beforeAll import) has no failed tests of its own.
  const brokenSuites = report.numRuntimeErrorTestSuites ?? 0;
  const passed = report.numPassedTests ?? 0;
  const failed = (report.numFailedTests ?? 0) + brokenSuites;
  const line = `tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
  return { passed, failed, skipped, brokenSuites, line };
}
