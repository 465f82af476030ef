import { type DataSource, EntityManager } from 'typeorm';

/** Where a write runs: on its own (a data source) or in the caller's transaction (its manager). */
export type Db = DataSource | EntityManager;

export const managerOf = (db: Db): EntityManager => (db instanceof EntityManager ? db : db.manager);
