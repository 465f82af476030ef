import type { DataSource } from 'typeorm';

export interface BetaSignupRow {
  id: string;
  email: string;
  zip_code: string;
  unique_code: string;
  signup_date: Date;
  status: string;
}

const COLUMNS = 'id, email, zip_code, unique_code, signup_date, status';

/**
 * Inserts the signup unless its email (case-insensitive) or its code is taken: both unique
 * indexes resolve races without a transaction. Undefined when nothing was inserted.
 */
export async function insertBetaSignup(
  dataSource: DataSource,
  email: string,
  zipCode: string,
  code: string,
): Promise<BetaSignupRow | undefined> {
  const inserted: BetaSignupRow[] = await dataSource.query(
    `INSERT INTO beta_signups (email, zip_code, unique_code) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
    [email, zipCode, code],
  );
  return inserted[0];
}

/** Someone signed up with this email already (case-insensitive). */
export async function betaSignupEmailTaken(dataSource: DataSource, email: string): Promise<boolean> {
  const existing: unknown[] = await dataSource.query(
    'SELECT 1 FROM beta_signups WHERE lower(email) = lower($1)',
    [email],
  );
  return existing.length > 0;
}

/** The newest signups, at most `limit`. */
export async function latestBetaSignups(dataSource: DataSource, limit: number): Promise<BetaSignupRow[]> {
  return dataSource.query(`SELECT ${COLUMNS} FROM beta_signups ORDER BY signup_date DESC, id DESC LIMIT $1`, [
    limit,
  ]);
}

/** Approves the signup (keeping the first approval's time); undefined when there is none of that id. */
export async function approveBetaSignup(
  dataSource: DataSource,
  id: string,
): Promise<BetaSignupRow | undefined> {
  const result: [BetaSignupRow[], number] = await dataSource.query(
    `UPDATE beta_signups SET status = 'approved', approved_at = COALESCE(approved_at, now())
       WHERE id = $1 RETURNING ${COLUMNS}`,
    [id],
  );
  return result[0][0];
}
