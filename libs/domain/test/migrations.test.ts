import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ALL_MIGRATIONS, runMigrations } from '@sprout/domain';

// Runs against an empty database of its own (not the harness template, which is already migrated).
describe('runMigrations', () => {
  const adminUrl = process.env.DATABASE_URL;
  const name = `sprout_m_${randomBytes(5).toString('hex')}`;
  let url: string;

  const admin = async (sql: string): Promise<void> => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    if (!adminUrl)
      throw new Error(
        'DATABASE_URL is not set: export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres',
      );
    await admin(`CREATE DATABASE "${name}"`);
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    url = u.toString();
  });
  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it('applies every migration exactly once when processes race, and is a no-op afterwards', async () => {
    const runs = await Promise.all([runMigrations(url), runMigrations(url), runMigrations(url)]);
    expect(runs.flat()).toEqual(ALL_MIGRATIONS.map((m) => m.name));
    expect(await runMigrations(url)).toEqual([]);

    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const applied = await client.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
      expect(applied.rows.map((r) => r.name)).toEqual(ALL_MIGRATIONS.map((m) => m.name));
      const tables = await client.query(
        `SELECT 1 FROM pg_tables WHERE schemaname = 'public' AND tablename = 'users'`,
      );
      expect(tables.rowCount).toBe(1);
    } finally {
      await client.end();
    }
  });
});
