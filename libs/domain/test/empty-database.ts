import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A database of its own with nothing in it (the test harness's template is already migrated). */
export interface EmptyDatabase {
  url: string;
  drop(): Promise<void>;
}

const asAdmin = async (adminUrl: string, sql: string): Promise<void> => {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

export async function createEmptyDatabase(prefix: string): Promise<EmptyDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl)
    throw new Error(
      'DATABASE_URL is not set: export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres',
    );
  const name = `${prefix}${randomBytes(5).toString('hex')}`;
  await asAdmin(adminUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => asAdmin(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
