import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import {
  type DataSource,
  EntityManager,
  type EntityMetadata,
  type EntityTarget,
  type ObjectLiteral,
  QueryRunnerAlreadyReleasedError,
} from 'typeorm';
import type { Db } from './db';

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

const dataSourceOf = (db: Db): DataSource => (db instanceof EntityManager ? db.connection : db);

/** The caller's transaction's connection when `db` holds one, else the pool. */
const clientOf = async (db: Db): Promise<Pool | PoolClient> => {
  const runner = db instanceof EntityManager ? db.queryRunner : undefined;
  if (runner !== undefined) {
    if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
    return (await runner.connect()) as PoolClient;
  }
  // TypeORM's Postgres driver keeps its pg Pool as `master`.
  return (dataSourceOf(db).driver as unknown as { master: Pool }).master;
};

const runPrepared = async <T extends QueryResultRow>(
  db: Db,
  text: string,
  values: unknown[],
): Promise<QueryResult<T>> => (await clientOf(db)).query<T>({ name: statementName(text), text, values });

/**
 * Runs a statement the process repeats (a polled read, the message path's reads and writes) as a
 * named prepared statement: each connection parses it once, and Postgres moves to a generic plan
 * when that plans as well as the per-call ones, so a repeated statement stops paying for planning
 * (most of a small read's cost), and the client skips TypeORM's query building and hydration. For
 * statements whose text is fixed and whose best plan does not hinge on the values (an id, a flag);
 * a search pattern's is better planned per call, with dataSource.query. In a transaction (`db`
 * its manager) it runs on the transaction's connection.
 */
export const queryPrepared = async <T extends QueryResultRow>(
  db: Db,
  text: string,
  values: unknown[],
): Promise<T[]> => (await runPrepared<T>(db, text, values)).rows;

/** `queryPrepared` for a write: how many rows it changed. */
const executePrepared = async (db: Db, text: string, values: unknown[]): Promise<number> =>
  (await runPrepared(db, text, values)).rowCount ?? 0;

/**
 * A statement's text built once per data source (from its entity metadata), so each call reuses
 * one string and its prepared statement.
 */
export const statementText = (build: (dataSource: DataSource) => string): ((db: Db) => string) => {
  const texts = new WeakMap<DataSource, string>();
  return (db) => {
    const dataSource = dataSourceOf(db);
    let text = texts.get(dataSource);
    if (text === undefined) {
      text = build(dataSource);
      texts.set(dataSource, text);
    }
    return text;
  };
};

/** An entity's selected columns under a table alias, and the reader of a row into the entity's shape. */
export interface EntityColumns<T> {
  /** `"m"."user_id" AS "m.userId", ...` */
  sql: string;
  /** The entity from a row holding these columns; null when its id is null (a left join's miss). */
  read: (row: Record<string, unknown>) => T | null;
}

const columnsByAlias = new WeakMap<EntityMetadata, Map<string, EntityColumns<ObjectLiteral>>>();

/** What TypeORM would hydrate (the column's transformer applied), from pg's own parsing of each type. */
export const entityColumns = <T extends ObjectLiteral>(
  dataSource: DataSource,
  target: EntityTarget<T>,
  alias: string,
): EntityColumns<T> => {
  const metadata = dataSource.getMetadata(target);
  let byAlias = columnsByAlias.get(metadata);
  if (byAlias === undefined) {
    byAlias = new Map();
    columnsByAlias.set(metadata, byAlias);
  }
  const known = byAlias.get(alias);
  if (known !== undefined) return known as EntityColumns<T>;

  const columns = metadata.columns
    .filter((column) => column.isSelect && !column.isVirtual)
    .map((column) => ({
      property: column.propertyName,
      key: `${alias}.${column.propertyName}`,
      transform:
        column.transformer !== undefined && !Array.isArray(column.transformer) ? column.transformer : null,
      sql: `"${alias}"."${column.databaseName}" AS "${alias}.${column.propertyName}"`,
    }));
  const primary = `${alias}.${metadata.primaryColumns[0]?.propertyName ?? 'id'}`;
  const made: EntityColumns<T> = {
    sql: columns.map((column) => column.sql).join(', '),
    read: (row) => {
      if (row[primary] === null || row[primary] === undefined) return null;
      const entity: Record<string, unknown> = {};
      for (const column of columns) {
        const value = row[column.key];
        entity[column.property] = column.transform === null ? value : column.transform.from(value);
      }
      return entity as T;
    },
  };
  byAlias.set(alias, made);
  return made;
};

/** The first row of a prepared statement as `target`'s entity (its columns under `alias`), or null. */
export const entityPrepared = async <T extends ObjectLiteral>(
  db: Db,
  target: EntityTarget<T>,
  alias: string,
  text: string,
  values: unknown[],
): Promise<T | null> => {
  const [row] = await queryPrepared<Record<string, unknown>>(db, text, values);
  return row === undefined ? null : entityColumns(dataSourceOf(db), target, alias).read(row);
};

type ColumnMetadata = EntityMetadata['columns'][number];

const sqlTypeOf = (column: ColumnMetadata): string =>
  `${typeof column.type === 'string' ? column.type : 'text'}${column.isArray ? '[]' : ''}`;

/**
 * `, "column" = $n::type` for each change, its values appended to `params` (a function value is
 * raw SQL, as in TypeORM's update). Throws on a property the entity has no column for.
 */
export const assignmentsOf = <T extends ObjectLiteral>(
  dataSource: DataSource,
  target: EntityTarget<T>,
  changes: object | undefined,
  params: unknown[],
): string => {
  const metadata = dataSource.getMetadata(target);
  let sql = '';
  for (const [property, value] of Object.entries(changes ?? {})) {
    if (value === undefined) continue;
    const column = metadata.findColumnWithPropertyName(property);
    if (column === undefined) throw new Error(`${metadata.name} has no column ${property}`);
    if (typeof value === 'function') {
      sql += `, "${column.databaseName}" = ${String((value as () => unknown)())}`;
      continue;
    }
    params.push(column.type === 'jsonb' && value !== null ? JSON.stringify(value) : value);
    sql += `, "${column.databaseName}" = $${params.length}::${sqlTypeOf(column)}`;
  }
  return sql;
};

/**
 * An UPDATE of `changes` on `table` where `where` holds (its parameters first in `params`), with
 * `updated_at` set to now unless the changes set it, as TypeORM's update does for the entity's
 * update date column. The number of rows changed.
 */
export const updatePrepared = async <T extends ObjectLiteral>(
  db: Db,
  target: EntityTarget<T>,
  changes: object,
  where: string,
  params: unknown[],
): Promise<number> => {
  const dataSource = dataSourceOf(db);
  const metadata = dataSource.getMetadata(target);
  const updateDate = metadata.updateDateColumn;
  const stamped =
    updateDate !== undefined && (changes as Record<string, unknown>)[updateDate.propertyName] === undefined
      ? `"${updateDate.databaseName}" = CURRENT_TIMESTAMP`
      : null;
  const assignments = assignmentsOf(dataSource, target, changes, params);
  const set = stamped === null ? assignments.slice(2) : `${stamped}${assignments}`;
  if (set === '') return 0;
  return executePrepared(db, `UPDATE "${metadata.tableName}" SET ${set} WHERE ${where}`, params);
};
