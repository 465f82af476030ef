import { randomInt } from 'node:crypto';
import { Injectable, InternalServerErrorException, NotFoundException } from '@nestjs/common';
import type { BetaSignupDto } from '@sprout/contracts';
import {
  type BetaSignupRow,
  approveBetaSignup,
  betaSignupEmailTaken,
  insertBetaSignup,
  latestBetaSignups,
} from '@sprout/domain';
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

const toDto = (row: BetaSignupRow): BetaSignupDto => ({
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
      const row = await insertBetaSignup(this.dataSource, email, zipCode, generateSignupCode());
      if (row !== undefined) return { created: true, signup: toDto(row) };
      if (await betaSignupEmailTaken(this.dataSource, email)) return { created: false };
      // Otherwise the code collided: draw another.
    }
    throw new InternalServerErrorException('Could not allocate a unique signup code.');
  }

  async list(limit: number): Promise<BetaSignupDto[]> {
    return (await latestBetaSignups(this.dataSource, limit)).map(toDto);
  }

  async approve(id: string): Promise<BetaSignupDto> {
    const row = await approveBetaSignup(this.dataSource, id);
    if (row === undefined) throw new NotFoundException('Beta signup not found.');
    return toDto(row);
  }
}
