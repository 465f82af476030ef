import { Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { BetaSignupStatus } from '../types';

@Entity({ name: 'beta_signups' })
@Unique('uq_beta_signups_unique_code', ['uniqueCode'])
@Index('uq_beta_signups_email_lower', { synchronize: false }) // UNIQUE (lower(email))
@Index('idx_beta_signups_signup_date', { synchronize: false }) // (signup_date DESC)
export class BetaSignup {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_beta_signups' })
  id!: string;

  /** Unique case-insensitively. */
  @Column({ name: 'email', type: 'varchar' })
  email!: string;

  @Column({ name: 'zip_code', type: 'varchar' })
  zipCode!: string;

  @Column({ name: 'unique_code', type: 'varchar' })
  uniqueCode!: string;

  @Column({ name: 'signup_date', type: 'timestamptz', default: () => 'now()' })
  signupDate!: Date;

  @Column({ name: 'status', type: 'varchar', default: 'pending' })
  status!: BetaSignupStatus;

  @Column({ name: 'approved_at', type: 'timestamptz', nullable: true })
  approvedAt!: Date | null;
}
