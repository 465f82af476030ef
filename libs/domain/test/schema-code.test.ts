// The files of src/sql are the database's code: a freshly migrated database holds exactly the
// functions and triggers they define, up to whitespace.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { createDataSource, runMigrations, schemaCode, schemaCodeFiles } from '@sprout/domain';
import { type EmptyDatabase, createEmptyDatabase } from './empty-database';

/** Functions and triggers of the public schema (extensions' own left out), each as its definition. */
async function codeOf(manager: EntityManager): Promise<Map<string, string>> {
  const functions = await manager.query<Array<{ name: string; def: string }>>(
    `SELECT 'function ' || p.oid::regprocedure::text AS name, pg_get_functiondef(p.oid) AS def
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
  );
  // Whether a trigger fires in replica mode (ENABLE ALWAYS) is not in its definition.
  const triggers = await manager.query<Array<{ name: string; def: string }>>(
    `SELECT 'trigger ' || t.tgname || ' on ' || t.tgrelid::regclass::text AS name,
            pg_get_triggerdef(t.oid) || E'\n-- enabled: ' || t.tgenabled::text AS def
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT t.tgisinternal`,
  );
  return new Map([...functions, ...triggers].map((row) => [row.name, row.def]));
}

/** Lines with their whitespace runs made one space, blank lines dropped. */
const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
const normalised = (text: string): string => linesOf(text).join(' ');

/** A line diff (longest common subsequence): "- " only in `a`, "+ " only in `b`. */
function lineDiff(a: string[], b: string[]): string {
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      common[i]![j] =
        a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`  ${a[i]}`);
      i += 1;
      j += 1;
    } else if (i < a.length && (j === b.length || common[i + 1]![j]! >= common[i]![j + 1]!)) {
      out.push(`- ${a[i]}`);
      i += 1;
    } else {
      out.push(`+ ${b[j]}`);
      j += 1;
    }
  }
  // Three lines of context around each change.
  const near = (k: number): boolean =>
    out.slice(Math.max(0, k - 3), k + 4).some((line) => !line.startsWith('  '));
  return out
    .map((line, k) => (near(k) ? line : '  ...'))
    .filter((line, k, all) => line !== '  ...' || all[k - 1] !== '  ...')
    .join('\n');
}

/** What differs between the migrated database's code and the files', in words a reader can act on. */
function codeDifferences(migrated: Map<string, string>, fromFiles: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [name, def] of migrated) {
    const file = fromFiles.get(name);
    if (file === undefined)
      problems.push(`${name} is in the migrated database but in no file of libs/domain/src/sql`);
    else if (normalised(file) !== normalised(def))
      problems.push(
        `${name} differs between the migrated database (-) and libs/domain/src/sql (+):\n${lineDiff(linesOf(def), linesOf(file))}`,
      );
  }
  for (const name of fromFiles.keys())
    if (!migrated.has(name))
      problems.push(`${name} is defined in libs/domain/src/sql but no migration creates it`);
  return problems;
}

/** The code the files alone make: everything dropped, then every file run (in a transaction rolled back). */
async function codeOfFiles(dataSource: DataSource): Promise<Map<string, string>> {
  const runner = dataSource.createQueryRunner();
  await runner.startTransaction();
  try {
    // Dropping a function drops the triggers and indexes that use it; the files make the code again.
    const functions = await runner.manager.query<Array<{ signature: string }>>(
      `SELECT p.oid::regprocedure::text AS signature
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public'
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
    );
    for (const { signature } of functions) await runner.query(`DROP FUNCTION IF EXISTS ${signature} CASCADE`);
    for (const name of schemaCodeFiles()) {
      try {
        await runner.query(schemaCode(name));
      } catch (error) {
        throw new Error(`libs/domain/src/sql/${name}.sql does not run: ${(error as Error).message}`);
      }
    }
    return await codeOf(runner.manager);
  } finally {
    await runner.rollbackTransaction();
    await runner.release();
  }
}

describe('the database code in libs/domain/src/sql', () => {
  let database: EmptyDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createEmptyDatabase('sprout_sc_');
    await runMigrations(database.url);
    dataSource = createDataSource({ url: database.url });
    await dataSource.initialize();
  });
  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  it('defines every function and trigger a fresh database holds after the migrations, as they are', async () => {
    const migrated = await codeOf(dataSource.manager);
    expect([...migrated.keys()]).toEqual(
      expect.arrayContaining([
        'function reserve_spend(numeric,timestamp with time zone,timestamp with time zone,double precision,numeric)',
        'trigger trg_messages_confirmation_settled on messages',
      ]),
    );
    const problems = codeDifferences(migrated, await codeOfFiles(dataSource));
    if (problems.length > 0) throw new Error(problems.join('\n\n'));
  });

  it('names the function whose text differs, with a line diff', () => {
    const def = 'CREATE FUNCTION f()\n AS $$\nBEGIN\n  RETURN 1;\nEND\n$$';
    expect(
      codeDifferences(
        new Map([['function f()', def]]),
        new Map([['function f()', def.replace(/\n {2}/, '\n    ')]]),
      ),
    ).toEqual([]);
    const [problem] = codeDifferences(
      new Map([['function f()', def]]),
      new Map([['function f()', def.replace('RETURN 1', 'RETURN 2')]]),
    );
    expect(problem).toBe(
      'function f() differs between the migrated database (-) and libs/domain/src/sql (+):\n' +
        '  CREATE FUNCTION f()\n  AS $$\n  BEGIN\n- RETURN 1;\n+ RETURN 2;\n  END\n  $$',
    );
    expect(codeDifferences(new Map([['trigger t on m', 'x']]), new Map([['function g()', 'y']]))).toEqual([
      'trigger t on m is in the migrated database but in no file of libs/domain/src/sql',
      'function g() is defined in libs/domain/src/sql but no migration creates it',
    ]);
  });

  it('is copied next to the built code, where schemaCode() reads it', () => {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as {
      scripts: { build: string };
    };
    expect(manifest.scripts.build).toMatch(/^swc src -d dist .*--copy-files/);
  });
});
