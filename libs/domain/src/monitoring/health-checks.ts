import type { DataSource } from 'typeorm';

// What a health check asks Postgres.

/** Resolves when Postgres answers a trivial statement; rejects when it does not. */
export async function pingDatabase(db: DataSource): Promise<void> {
  await db.query('SELECT 1');
}

export interface ReplyTierRow {
  tier: string;
  createdAt: Date;
}

/** The tier and time of the newest reply call that did not fail; null before the first. */
export async function newestReplyTier(db: DataSource): Promise<ReplyTierRow | null> {
  const rows = await db.query<Array<{ tier: string; created_at: Date }>>(
    `SELECT "tier", "created_at" FROM "llm_calls"
      WHERE "purpose" = 'reply' AND "error" IS NULL
      ORDER BY "created_at" DESC LIMIT 1`,
  );
  const row = rows[0];
  return row === undefined ? null : { tier: row.tier, createdAt: new Date(row.created_at) };
}
