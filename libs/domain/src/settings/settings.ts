import type { EntityManager } from 'typeorm';
import { Setting } from '../entities/setting.entity';

/** Global daily AI spending limit in dollars (default 50). */
export const SPENDING_LIMIT_SETTING = 'spending_limit';
export const DEFAULT_SPENDING_LIMIT = 50;

/** The stored JSON value, or `fallback` when the key was never set. The type parameter is trusted, not checked. */
export async function getSetting<T>(manager: EntityManager, key: string): Promise<T | undefined>;
export async function getSetting<T>(manager: EntityManager, key: string, fallback: T): Promise<T>;
export async function getSetting<T>(
  manager: EntityManager,
  key: string,
  fallback?: T,
): Promise<T | undefined> {
  const row = await manager.findOneBy(Setting, { key });
  return row ? (row.value as T) : fallback;
}

/** Creates or replaces the value (any JSON-serialisable value). */
export async function setSetting(manager: EntityManager, key: string, value: unknown): Promise<void> {
  if (value === undefined) throw new TypeError(`Setting "${key}" needs a value`);
  await manager.query(
    `INSERT INTO "settings" ("key", "value", "updated_at") VALUES ($1, $2::jsonb, now())
     ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value", "updated_at" = now()`,
    [key, JSON.stringify(value)],
  );
}
