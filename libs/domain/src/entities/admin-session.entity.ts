import { Entity, Index, PrimaryColumn, type Relation } from 'typeorm';
import { Reference, TimestampColumn } from './columns';
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

  @Reference('admin_sessions', () => AdminUser)
  adminUserId!: string;
  adminUser?: Relation<AdminUser>;

  @TimestampColumn('created_at')
  createdAt!: Date;

  /** Last use that slid the idle timeout (updated at most every tenth of the idle timeout). */
  @TimestampColumn('last_seen_at')
  lastSeenAt!: Date;

  @TimestampColumn('idle_expires_at')
  idleExpiresAt!: Date;

  @TimestampColumn('expires_at')
  expiresAt!: Date;
}
