import { Entity, Index, Unique } from 'typeorm';
import type { BetaSignupStatus } from '../types';
import { IdColumn, TimestampColumn, VarcharColumn } from './columns';

@Entity({ name: 'beta_signups' })
@Unique('uq_beta_signups_unique_code', ['uniqueCode'])
@Index('uq_beta_signups_email_lower', { synchronize: false }) // UNIQUE (lower(email))
@Index('idx_beta_signups_signup_date', { synchronize: false }) // (signup_date DESC)
export class BetaSignup {
  @IdColumn('beta_signups')
  id!: string;

  /** Unique case-insensitively. */
  @VarcharColumn('email')
  email!: string;

  @VarcharColumn('zip_code')
  zipCode!: string;

  @VarcharColumn('unique_code')
  uniqueCode!: string;

  @TimestampColumn('signup_date', { default: () => 'now()' })
  signupDate!: Date;

  @VarcharColumn('status', { default: 'pending' })
  status!: BetaSignupStatus;

  @TimestampColumn('approved_at', { nullable: true })
  approvedAt!: Date | null;
}
