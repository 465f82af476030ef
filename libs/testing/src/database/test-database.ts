import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { ALL_MIGRATIONS, createDataSource, runMigrations, schemaCode, schemaCodeFiles } from '@sprout/domain';
import { requireTestEnv } from './env';

export interface TestDatabase {
  /** URL of this test file's own database. */
  url: string;
  /** Initialised, on the migrated schema. */
  dataSource: DataSource;
  /** Closes the DataSource and drops the database (terminating any connection still open to it). */
  drop(): Promise<void>;
}

const TEST_DB_PREFIX = 'sprout_t_';
/** sprout_t_<creation time, base 36>_<random hex> */
const TEST_DB_NAME = /^sprout_t_([0-9a-z]+)_[0-9a-f]+$/;
/** Test databases older than this are leftovers of killed runs. */
const STALE_AFTER_MS = 12 * 60 * 60 * 1000;

/**
 * One migrated template per migration set: sprout_tpl_<hash of the migration class names, their
 * source and the schema code files they load>, so editing a migration or a file under
 * development also yields a fresh template.
 */
export function templateDatabaseName(): string {
  const hash = createHash('sha256');
  for (const migration of ALL_MIGRATIONS) {
    hash.update(migration.name).update('\0').update(migration.toString()).update('\0');
  }
  for (const file of schemaCodeFiles()) hash.update(file).update('\0').update(schemaCode(file)).update('\0');
  return `sprout_tpl_${hash.digest('hex').slice(0, 12)}`;
}

function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdminClient<T>(adminUrl: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl, application_name: 'sprout-test-admin' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function databaseExists(client: Client, name: string): Promise<boolean> {
  const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return (result.rowCount ?? 0) > 0;
}

const ensured = new Map<string, Promise<void>>();

/**
 * Builds the template once per machine and migration set. Parallel Jest workers serialise on an
 * advisory lock; the template is migrated under a temporary name and renamed when complete, so a
 * run killed half-way never leaves a broken template behind.
 */
function ensureTemplate(adminUrl: string, template: string): Promise<void> {
  let pending = ensured.get(template);
  if (!pending) {
    pending = withAdminClient(adminUrl, async (client) => {
      if (await databaseExists(client, template)) return;
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [template]);
      try {
        if (await databaseExists(client, template)) return;
        const building = `${template}_build`;
        await client.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
        await client.query(`CREATE DATABASE "${building}"`);
        await runMigrations(databaseUrl(adminUrl, building));
        // The migration's backends may still be exiting after their clients closed.
        await retryWhileInUse(() => client.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`));
        await dropStaleTestDatabases(client);
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [template]);
      }
    });
    pending.catch(() => ensured.delete(template));
    ensured.set(template, pending);
  }
  return pending;
}

async function retryWhileInUse<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      const objectInUse = (error as { code?: string }).code === '55006';
      if (!objectInUse || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function dropStaleTestDatabases(client: Client): Promise<void> {
  const result = await client.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname ~ $1`,
    [TEST_DB_NAME.source],
  );
  for (const { datname } of result.rows) {
    const createdAt = parseInt(TEST_DB_NAME.exec(datname)?.[1] ?? '', 36);
    if (Number.isFinite(createdAt) && Date.now() - createdAt > STALE_AFTER_MS) {
      await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  }
}

/**
 * A fresh, migrated database of its own for one test file (copied from the template, so it costs
 * a CREATE DATABASE rather than a migration run). Call `drop()` in afterAll.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = requireTestEnv('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/postgres');
  const template = templateDatabaseName();
  await ensureTemplate(adminUrl, template);

  const name = `${TEST_DB_PREFIX}${Date.now().toString(36)}_${randomBytes(5).toString('hex')}`;
  await withAdminClient(adminUrl, (client) =>
    retryWhileInUse(() => client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`)),
  );

  const url = databaseUrl(adminUrl, name);
  const dataSource = createDataSource({ url, poolSize: 5, applicationName: 'sprout-test' });
  try {
    await dataSource.initialize();
  } catch (error) {
    await withAdminClient(adminUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    );
    throw error;
  }

  let dropped: Promise<void> | undefined;
  const drop = (): Promise<void> => {
    dropped ??= (async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await withAdminClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
    })();
    return dropped;
  };
  return { url, dataSource, drop };
}

/** Empties every entity table (for tests that want a clean slate between cases). */
export async function truncateAll(dataSource: DataSource): Promise<void> {
  const tables = dataSource.entityMetadatas
    .filter((m) => m.tableType === 'regular')
    .map((m) => `"${m.tableName}"`);
  if (tables.length === 0) return;
  await dataSource.query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
}
