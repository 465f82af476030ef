// npm run lock:platforms: after `npm install` changed package-lock.json, add the entries of
// other platforms' optional binaries that npm left out, so `npm ci` accepts the lock everywhere.
// `--check` only reports (npm test runs it) and exits 1 when an entry is missing.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/stack.mjs';
import { completeLock, missingOptionalEntries, readLock } from './lib/lock-platforms.mjs';

const file = path.join(ROOT, 'package-lock.json');
const lock = readLock(file);
if (process.argv.includes('--check')) {
  const missing = missingOptionalEntries(lock);
  if (missing.length > 0) {
    console.error(
      `package-lock.json lacks ${missing.length} optional package entr${missing.length === 1 ? 'y' : 'ies'} ` +
        `(npm ci refuses it), e.g. ${missing
          .slice(0, 3)
          .map((m) => m.name)
          .join(', ')}. Run: npm run lock:platforms`,
    );
    process.exit(1);
  }
  console.log('package-lock.json: every optional platform package has an entry');
} else {
  const unplaced = completeLock(lock);
  fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  if (unplaced.length > 0) {
    console.error(`could not complete: ${unplaced.join('; ')}`);
    process.exit(1);
  }
  console.log('package-lock.json completed');
}
