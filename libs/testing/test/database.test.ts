import { Client } from 'pg';
import { User } from '@sprout/domain';
import { createTestDatabase, templateDatabaseName, truncateAll, type TestDatabase } from '@sprout/testing';

async function databaseExists(name: string): Promise<boolean> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

const nameOf = (db: TestDatabase): string => new URL(db.url).pathname.slice(1);

describe('createTestDatabase', () => {
  it('gives parallel callers separate, migrated databases', async () => {
    const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    try {
      expect(a.url).not.toBe(b.url);
      expect(a.dataSource.isInitialized).toBe(true);
      expect(await a.dataSource.showMigrations()).toBe(false);

      await a.dataSource.getRepository(User).insert({ phoneNumber: '+15035550111' });
      expect(await a.dataSource.getRepository(User).count()).toBe(1);
      expect(await b.dataSource.getRepository(User).count()).toBe(0);
    } finally {
      await Promise.all([a.drop(), b.drop()]);
    }
  });

  it('drops the database and closes its DataSource', async () => {
    const db = await createTestDatabase();
    expect(await databaseExists(nameOf(db))).toBe(true);
    await db.drop();
    expect(db.dataSource.isInitialized).toBe(false);
    expect(await databaseExists(nameOf(db))).toBe(false);
    await db.drop();
  });

  it('drops the database even while another connection is still open to it', async () => {
    const db = await createTestDatabase();
    const straggler = new Client({ connectionString: db.url });
    straggler.on('error', () => undefined);
    await straggler.connect();
    await db.drop();
    expect(await databaseExists(nameOf(db))).toBe(false);
    await straggler.end().catch(() => undefined);
  });

  it('keeps the migrated template under a name derived from the migration set', async () => {
    expect(templateDatabaseName()).toMatch(/^sprout_tpl_[0-9a-f]{12}$/);
    expect(await databaseExists(templateDatabaseName())).toBe(true);
  });

  it('truncateAll empties every table', async () => {
    const db = await createTestDatabase();
    try {
      await db.dataSource.getRepository(User).insert({ phoneNumber: '+15035550112' });
      await truncateAll(db.dataSource);
      expect(await db.dataSource.getRepository(User).count()).toBe(0);
    } finally {
      await db.drop();
    }
  });

  it('explains how to set DATABASE_URL when it is missing', async () => {
    const saved = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      await expect(createTestDatabase()).rejects.toThrow(/export DATABASE_URL=postgres:\/\//);
    } finally {
      process.env.DATABASE_URL = saved;
    }
  });
});
