import { createTestDatabase, type TestDatabase } from '@sprout/testing';
import type { DataSource } from 'typeorm';

/**
 * Gives the calling suite a migrated database of its own, made before its first test and dropped
 * after its last; `cleanUp` (e.g. truncateAll) runs after every test. Returns the data source.
 */
export function useTestDatabase(cleanUp?: (dataSource: DataSource) => Promise<void>): () => DataSource {
  let db: TestDatabase | undefined;
  const dataSource = (): DataSource => {
    if (db === undefined) throw new Error('the test database is made in beforeAll');
    return db.dataSource;
  };
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  if (cleanUp !== undefined)
    afterEach(async () => {
      await cleanUp(dataSource());
    });
  afterAll(async () => {
    await db?.drop();
  });
  return dataSource;
}
