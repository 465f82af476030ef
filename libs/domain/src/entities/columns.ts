import {
  Column,
  type ColumnOptions,
  type ColumnType,
  CreateDateColumn,
  JoinColumn,
  ManyToOne,
  type ObjectType,
  OneToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { numericTransformer } from '../transformers';

// The column shapes most tables repeat, named once; the migrations create the same constraint names.

/** The generated uuid key; its constraint is pk_<table>. */
export const IdColumn = (table: string): PropertyDecorator =>
  PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: `pk_${table}` });

type More = Omit<ColumnOptions, 'name' | 'type'>;

const typed =
  (type: ColumnType) =>
  (name: string, more: More = {}): PropertyDecorator =>
    Column({ name, type, ...more });

export const VarcharColumn = typed('varchar');
export const TextColumn = typed('text');
export const IntColumn = typed('int');
export const BooleanColumn = typed('boolean');
export const TimestampColumn = typed('timestamptz');

/** A count that starts at zero. */
export const CountColumn = (name: string): PropertyDecorator => IntColumn(name, { default: 0 });

/** Whether the row is a test user's (copied onto their rows so the console can keep test traffic apart). */
export const TestUserColumn = (): PropertyDecorator => BooleanColumn('is_test_user', { default: false });

/** Money: numeric(14,6), read back as a number. */
export const MoneyColumn = (name: string, more: More = {}): PropertyDecorator =>
  Column({ name, type: 'numeric', precision: 14, scale: 6, transformer: numericTransformer, ...more });

export const CreatedAtColumn = (): PropertyDecorator =>
  CreateDateColumn({ name: 'created_at', type: 'timestamptz' });

export const UpdatedAtColumn = (): PropertyDecorator =>
  UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' });

/**
 * A uuid foreign key declared on its id property (`weatherAlertId`), with the many-to-one relation
 * on the same name without `Id` (`weatherAlert`, declared undecorated beside it). The column is
 * the snake_case of the property and the constraint fk_<table>_<column>. A required reference
 * goes with the row it names; an optional one is nullable and cleared when that row goes. As
 * `primaryKey` it is also the table's key (pk_<table>); `oneToOne` makes the relation one-to-one.
 */
export function Reference<T>(
  table: string,
  target: () => ObjectType<T>,
  options: { optional?: boolean; primaryKey?: boolean; oneToOne?: boolean } = {},
): PropertyDecorator {
  return (prototype, key) => {
    const property = String(key);
    const column = property.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    const relation = property.replace(/Id$/, '');
    if (relation === property) throw new Error(`Reference ${table}.${property}: the property must end in Id`);
    const optional = options.optional === true;
    if (options.primaryKey === true)
      PrimaryColumn({ name: column, type: 'uuid', primaryKeyConstraintName: `pk_${table}` })(
        prototype,
        property,
      );
    else Column({ name: column, type: 'uuid', nullable: optional })(prototype, property);
    (options.oneToOne === true ? OneToOne : ManyToOne)(
      target,
      optional ? { onDelete: 'SET NULL', nullable: true } : { onDelete: 'CASCADE' },
    )(prototype, relation);
    JoinColumn({ name: column, foreignKeyConstraintName: `fk_${table}_${column}` })(prototype, relation);
  };
}
