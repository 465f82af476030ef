import { useTestDatabase } from './test-database';

// Entities and migrations must describe the same schema: if they drift, TypeORM would want to
// change the database, and the queries it builds would not match the real tables.
describe('entities agree with migrations', () => {
  const ds = useTestDatabase();

  it('leaves nothing for the schema builder to change on a freshly migrated database', async () => {
    const log = await ds().driver.createSchemaBuilder().log();
    const pending = log.upQueries.map((q) => q.query);
    if (pending.length > 0) {
      throw new Error(`Entities and migrations disagree; TypeORM would run:\n${pending.join(';\n')}`);
    }
    expect(pending).toEqual([]);
  });

  it('has applied every migration and has no pending one', async () => {
    expect(await ds().showMigrations()).toBe(false);
  });

  it('keeps the indexes the entities declare with synchronize: false', async () => {
    const rows: Array<{ indexname: string; indexdef: string }> = await ds().query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'`,
    );
    const declared = ds().entityMetadatas.flatMap((m) =>
      m.indices.filter((i) => i.synchronize === false).map((i) => i.name),
    );
    expect(declared.length).toBeGreaterThan(0);
    for (const name of declared) {
      expect(rows.map((r) => r.indexname)).toContain(name);
    }
    const byName = new Map(rows.map((r) => [r.indexname, r.indexdef]));
    expect(byName.get('idx_users_phone_number_pattern')).toContain('text_pattern_ops');
    expect(byName.get('uq_beta_signups_email_lower')).toMatch(/UNIQUE INDEX .*lower\(\(email\)::text\)/);
    expect(byName.get('idx_conversations_user_id_last_message_at')).toContain('last_message_at DESC');
    expect(byName.get('idx_messages_failed_created_at')).toMatch(/WHERE .*failed.*undelivered/);
  });
});
