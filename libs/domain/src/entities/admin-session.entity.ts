import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { AdminUser } from './admin-user.entity';

/**
 * A signed-in admin console session (the api-gateway's sprout_session cookie). Only a SHA-256 of
 * the cookie's id is stored, so reading this table does not let anyone sign in. A session lives
 * until the earlier of idle_expires_at (slid forward on use) and expires_at (the absolute cap).
 */
@Entity({ name: 'admin_sessions' })
@Index('idx_admin_sessions_admin_user_id', ['adminUserId'])
@Index('idx_admin_sessions_idle_expires_at', ['idleExpiresAt'])
export class AdminSession {
  /** Hex SHA-256 of the session id the cookie carries. */
  @PrimaryColumn({ name: 'token_hash', type: 'varchar', primaryKeyConstraintName: 'pk_admin_sessions' })
  tokenHash!: string;

  @Column({ name: 'admin_user_id', type: 'uuid' })
  adminUserId!: string;

  @ManyToOne(() => AdminUser, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'admin_user_id', foreignKeyConstraintName: 'fk_admin_sessions_admin_user_id' })
  adminUser?: Relation<AdminUser>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Last use that slid the idle timeout (updated at most every tenth of the idle timeout). */
  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt!: Date;

  @Column({ name: 'idle_expires_at', type: 'timestamptz' })
  idleExpiresAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
