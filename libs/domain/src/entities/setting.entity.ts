import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Key/value runtime settings editable from the console (e.g. the spending limit). */
@Entity({ name: 'settings' })
export class Setting {
  @PrimaryColumn({ name: 'key', type: 'varchar', primaryKeyConstraintName: 'pk_settings' })
  key!: string;

  @Column({ name: 'value', type: 'jsonb' })
  value!: unknown;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
