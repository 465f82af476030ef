import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The database's own code, as files: every function and trigger the migrations leave in the
 * schema, one file per function or per group that works together (`src/sql/<name>.sql`, copied
 * next to the built code by the build's --copy-files). Each file can be run again as it is
 * (CREATE OR REPLACE FUNCTION; DROP TRIGGER IF EXISTS then CREATE TRIGGER), so a migration that
 * changes a function edits its file and loads it:
 *
 *   await queryRunner.query(schemaCode('reserve_spend'));
 *
 * test/schema-code.test.ts fails while a migrated database and the files disagree.
 */
const SCHEMA_CODE_DIR = path.join(__dirname, 'sql');

/** The names of the files (without `.sql`), in name order. */
export function schemaCodeFiles(): string[] {
  return readdirSync(SCHEMA_CODE_DIR)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => file.slice(0, -'.sql'.length))
    .sort();
}

/** The text of `src/sql/<name>.sql`: statements to run in one query (no parameters). */
export function schemaCode(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Not a schema code file name: ${name}`);
  return readFileSync(path.join(SCHEMA_CODE_DIR, `${name}.sql`), 'utf8');
}
