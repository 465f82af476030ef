import { randomInt } from 'node:crypto';
import { Injectable, InternalServerErrorException, NotFoundException } from '@nestjs/common';
import type { BetaSignupDto } from '@sprout/contracts';
import { DataSource } from 'typeorm';

/** Letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 6;
const CODE_ATTEMPTS = 8;

const generateSignupCode = (): string => {
  let code = 'SPROUT-';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET.charAt(randomInt(CODE_ALPHABET.length));
  return code;
};

interface SignupRow {
  id: string;
  email: string;
  zip_code: string;
  unique_code: string;
  signup_date: Date;
  status: string;
}

const COLUMNS = 'id, email, zip_code, unique_code, signup_date, status';

const toDto = (row: SignupRow): BetaSignupDto => ({
  id: row.id,
  email: row.email,
  zipCode: row.zip_code,
  uniqueCode: row.unique_code,
  signupDate: row.signup_date.toISOString(),
  status: row.status,
});

export type SignupOutcome = { created: true; signup: BetaSignupDto } | { created: false };

/** The beta waitlist: one signup per email (case-insensitive), each with its own code. */
@Injectable()
export class WaitlistService {
  constructor(private readonly dataSource: DataSource) {}

  async signUp(email: string, zipCode: string): Promise<SignupOutcome> {
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
      // Both unique indexes (lower(email), unique_code) resolve races without a transaction.
      const inserted: SignupRow[] = await this.dataSource.query(
        `INSERT INTO beta_signups (email, zip_code, unique_code) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
        [email, zipCode, generateSignupCode()],
      );
      const row = inserted[0];
      if (row !== undefined) return { created: true, signup: toDto(row) };
      const existing: unknown[] = await this.dataSource.query(
        'SELECT 1 FROM beta_signups WHERE lower(email) = lower($1)',
        [email],
      );
      if (existing.length > 0) return { created: false };
      // Otherwise the code collided: draw another.
    }
    throw new InternalServerErrorException('Could not allocate a unique signup code.');
  }

  async list(limit: number): Promise<BetaSignupDto[]> {
    const rows: SignupRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM beta_signups ORDER BY signup_date DESC, id DESC LIMIT $1`,
      [limit],
    );
    return rows.map(toDto);
  }

  async approve(id: string): Promise<BetaSignupDto> {
    const result: [SignupRow[], number] = await this.dataSource.query(
      `UPDATE beta_signups SET status = 'approved', approved_at = COALESCE(approved_at, now())
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id],
    );
    const row = result[0][0];
    if (row === undefined) throw new NotFoundException('Beta signup not found.');
    return toDto(row);
  }
}
