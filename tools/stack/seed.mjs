// npm run seed -- --users N [--days 60] [--reset] [--once]: demo data in DATABASE_URL (else the
// private Postgres of npm start). Builds the tools when needed and migrates first.
import { ensureDependencies, StackError } from './lib/stack.mjs';
import { ensureToolsBuilt, runStep } from './lib/proc.mjs';
import { withDatabaseUrl } from './lib/database-url.mjs';

try {
  ensureDependencies();
  ensureToolsBuilt();
  const status = await withDatabaseUrl(async (url) => {
    const env = { ...process.env, DATABASE_URL: url };
    const migrated = runStep(process.execPath, ['tools/dist/stack/migrate.js'], { env });
    if (!migrated.ok) return migrated.status;
    return runStep(process.execPath, ['tools/dist/seed/main.js', ...process.argv.slice(2)], { env }).status;
  });
  process.exitCode = status;
} catch (error) {
  process.stderr.write(
    `seed failed: ${error instanceof StackError ? error.message : (error?.stack ?? error)}\n`,
  );
  process.exitCode = 1;
}
