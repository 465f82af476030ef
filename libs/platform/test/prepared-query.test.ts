import { openDataSource, queryPrepared } from '@sprout/platform';
import { type TestDatabase, createTestDatabase } from '@sprout/testing';
import type { DataSource } from 'typeorm';

describe('queryPrepared', () => {
  let db: TestDatabase;
  let single: DataSource; // one connection, so what it has prepared can be read back
  beforeAll(async () => {
    db = await createTestDatabase();
    single = await openDataSource(db.url, 'prepared-query-test', 1);
  });
  afterAll(async () => {
    await single.destroy();
    await db.drop();
  });

  const prepared = async (): Promise<Array<{ name: string; statement: string }>> =>
    single.query(`SELECT name, statement FROM pg_prepared_statements ORDER BY prepare_time`);

  it('prepares a statement once per connection under a name of its text, and reuses it', async () => {
    const text = 'SELECT $1::int + 1 AS next';
    for (let i = 0; i < 3; i++) {
      expect(await queryPrepared<{ next: number }>(single, text, [i])).toEqual([{ next: i + 1 }]);
    }
    const held = await prepared();
    expect(held).toHaveLength(1);
    expect(held[0]?.statement).toBe(text);
    expect(held[0]?.name).toMatch(/^sprout_[0-9a-f]{24}$/);

    expect(await queryPrepared(single, 'SELECT $1::text AS echo', ['plain'])).toEqual([{ echo: 'plain' }]);
    expect((await prepared()).map((s) => s.statement)).toEqual([text, 'SELECT $1::text AS echo']);
  });
});
