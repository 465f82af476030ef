import { runMigrations } from '@sprout/domain';

// npm run migrate (tools/stack/migrate.mjs runs this with DATABASE_URL set).
async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  const applied = await runMigrations(url);
  process.stdout.write(
    applied.length === 0 ? 'migrate: schema is up to date\n' : `migrate: applied ${applied.join(', ')}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`migrate failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
