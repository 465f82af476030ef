import { Client } from 'pg';
import { ALL_MIGRATIONS, createDataSource, runMigrations } from '@sprout/domain';
import { type EmptyDatabase, createEmptyDatabase } from './empty-database';

// Runs against an empty database of its own (not the harness template, which is already migrated).
describe('runMigrations', () => {
  let database: EmptyDatabase;
  let url: string;

  beforeAll(async () => {
    database = await createEmptyDatabase('sprout_m_');
    url = database.url;
  });
  afterAll(async () => {
    await database?.drop();
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

  // A database that already holds texts (a demo database, an upgrade) gets no awaiting_replies rows.
  it('AwaitingReplies backfills nothing, and its down migration restores the previous record_inbound()', async () => {
    const ds = createDataSource({ url });
    await ds.initialize();
    try {
      const applied = async (): Promise<boolean> =>
        (await ds.query(`SELECT 1 FROM migrations WHERE name = 'AwaitingReplies1797100000000'`)).length > 0;
      await ds.runMigrations({ transaction: 'each' });
      while (await applied()) await ds.undoLastMigration({ transaction: 'each' });
      expect(await ds.query(`SELECT pronargs FROM pg_proc WHERE proname = 'record_inbound'`)).toEqual([
        { pronargs: 15 },
      ]);
      // Texts from Twilio stored, unanswered, before the outbox existed.
      for (let i = 0; i < 3; i += 1) {
        await ds.query(
          `SELECT * FROM record_inbound(NULL, false, $1, false, now(), $2, 'Unanswered', $3, '[]', NULL, NULL, NULL, NULL, NULL, NULL)`,
          [`+150355501${10 + i}`, 6 * 60 * 60 * 1000, `SMbefore${String(i).padStart(26, '0')}`],
        );
      }

      await ds.runMigrations({ transaction: 'each' });
      expect(await applied()).toBe(true);
      expect(await ds.query(`SELECT count(*)::int AS n FROM messages`)).toEqual([{ n: 3 }]);
      expect(await ds.query(`SELECT count(*)::int AS n FROM awaiting_replies`)).toEqual([{ n: 0 }]);
    } finally {
      await ds.destroy();
    }
  });
});
