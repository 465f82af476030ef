// npm run migrate: applies pending migrations to DATABASE_URL (else the private Postgres of npm start).
import { ensureDependencies, StackError } from './lib/stack.mjs';
import { ensureToolsBuilt, runStep } from './lib/proc.mjs';
import { withDatabaseUrl } from './lib/database-url.mjs';

try {
  ensureDependencies();
  ensureToolsBuilt();
  const status = await withDatabaseUrl(
    async (url) =>
      runStep(process.execPath, ['tools/dist/stack/migrate.js'], {
        env: { ...process.env, DATABASE_URL: url },
      }).status,
  );
  process.exitCode = status;
} catch (error) {
  process.stderr.write(
    `migrate failed: ${error instanceof StackError ? error.message : (error?.stack ?? error)}\n`,
  );
  process.exitCode = 1;
}
