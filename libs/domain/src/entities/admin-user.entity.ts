import { Entity, Unique } from 'typeorm';
import { CreatedAtColumn, IdColumn, TimestampColumn, VarcharColumn } from './columns';

@Entity({ name: 'admin_users' })
@Unique('uq_admin_users_username', ['username'])
export class AdminUser {
  @IdColumn('admin_users')
  id!: string;

  @VarcharColumn('username')
  username!: string;

  @VarcharColumn('password_hash')
  passwordHash!: string;

  @CreatedAtColumn()
  createdAt!: Date;

  @TimestampColumn('last_login_at', { nullable: true })
  lastLoginAt!: Date | null;
}
