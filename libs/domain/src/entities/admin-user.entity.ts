import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

@Entity({ name: 'admin_users' })
@Unique('uq_admin_users_username', ['username'])
export class AdminUser {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_admin_users' })
  id!: string;

  @Column({ name: 'username', type: 'varchar' })
  username!: string;

  @Column({ name: 'password_hash', type: 'varchar' })
  passwordHash!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true })
  lastLoginAt!: Date | null;
}
