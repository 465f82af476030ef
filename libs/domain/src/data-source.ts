import 'reflect-metadata';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { ALL_ENTITIES } from './entities';
import { ALL_MIGRATIONS } from './migrations';

export interface DataSourceConfig {
  /** postgres://user:pass@host:port/db */
  url: string;
  logging?: boolean;
  /** Maximum connections in the pool (pg default 10). */
  poolSize?: number;
  /** Shown in pg_stat_activity; use the service name. */
  applicationName?: string;
}

/**
 * Options every process uses for Postgres (also suitable for Nest's TypeOrmModule.forRootAsync).
 * The schema belongs to the migrations: never synchronize, never run migrations implicitly.
 */
export function buildDataSourceOptions(config: DataSourceConfig): PostgresConnectionOptions {
  return {
    type: 'postgres',
    url: config.url,
    entities: [...ALL_ENTITIES],
    migrations: [...ALL_MIGRATIONS],
    migrationsTableName: 'migrations',
    migrationsRun: false,
    synchronize: false,
    // gen_random_uuid() defaults; the migration creates the extension, so connecting never needs superuser.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    logging: config.logging ?? false,
    ...(config.poolSize !== undefined ? { poolSize: config.poolSize } : {}),
    ...(config.applicationName !== undefined ? { applicationName: config.applicationName } : {}),
  };
}

/** An un-initialised DataSource; call `initialize()` before use and `destroy()` on shutdown. */
export function createDataSource(config: DataSourceConfig): DataSource {
  return new DataSource(buildDataSourceOptions(config));
}

/** Arbitrary but fixed: serialises migration runs across processes sharing one database. */
export const MIGRATION_ADVISORY_LOCK_KEY = 774_201_311;

/**
 * Applies pending migrations and closes the connection. Safe to call from several processes at
 * once: a session-level advisory lock makes them take turns, and later runs find nothing to do.
 * Returns the names of the migrations this call applied.
 */
export async function runMigrations(url: string): Promise<string[]> {
  const dataSource = createDataSource({ url, poolSize: 2, applicationName: 'sprout-migrate' });
  await dataSource.initialize();
  try {
    const lockRunner = dataSource.createQueryRunner();
    await lockRunner.connect();
    try {
      await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_ADVISORY_LOCK_KEY]);
      try {
        const applied = await dataSource.runMigrations({ transaction: 'each' });
        return applied.map((m) => m.name);
      } finally {
        await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_ADVISORY_LOCK_KEY]);
      }
    } finally {
      await lockRunner.release();
    }
  } finally {
    await dataSource.destroy();
  }
}
