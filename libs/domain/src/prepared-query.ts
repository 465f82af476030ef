import { createHash } from 'node:crypto';
import type { Pool, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';

const statementNames = new Map<string, string>();

/** One name per statement text, so each pooled connection prepares a statement once. */
const statementName = (text: string): string => {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `sprout_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
};

/**
 * Runs a statement the process repeats (a polled read) as a named prepared statement: each
 * connection parses it once, and Postgres moves to a generic plan when that plans as well as the
 * per-call ones, so a poll stops paying for planning (most of a small read's cost). For
 * statements whose text is fixed and whose best plan does not hinge on the values (an id, a flag);
 * a search pattern's is better planned per call, with dataSource.query.
 */
export const queryPrepared = async <T extends QueryResultRow>(
  dataSource: DataSource,
  text: string,
  values: unknown[],
): Promise<T[]> => {
  // TypeORM's Postgres driver keeps its pg Pool as `master`.
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const result = await pool.query<T>({ name: statementName(text), text, values });
  return result.rows;
};
