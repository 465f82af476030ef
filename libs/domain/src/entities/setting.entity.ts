import { Column, Entity, PrimaryColumn } from 'typeorm';
import { UpdatedAtColumn } from './columns';

/** Key/value runtime settings editable from the console (e.g. the spending limit). */
@Entity({ name: 'settings' })
export class Setting {
  @PrimaryColumn({ name: 'key', type: 'varchar', primaryKeyConstraintName: 'pk_settings' })
  key!: string;

  @Column({ name: 'value', type: 'jsonb' })
  value!: unknown;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
