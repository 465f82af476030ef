import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { moneyColumn } from '../transformers';

@Entity({ name: 'ai_models' })
@Unique('uq_ai_models_name', ['name'])
@Check('chk_ai_models_max_tokens', '"max_tokens" BETWEEN 0 AND 2000000')
@Check(
  'chk_ai_models_live_or_fallback_is_active',
  '("is_live" = false AND "is_fallback" = false) OR "is_active" = true',
)
@Index('uq_ai_models_single_live', ['isLive'], { unique: true, where: '"is_live" = true' })
@Index('uq_ai_models_single_fallback', ['isFallback'], { unique: true, where: '"is_fallback" = true' })
export class AiModel {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_ai_models' })
  id!: string;

  /** Provider model name, e.g. gpt-4o-mini. */
  @Column({ name: 'name', type: 'varchar' })
  name!: string;

  @Column({ name: 'display_name', type: 'varchar', nullable: true })
  displayName!: string | null;

  @Column({ name: 'input_price_per_million', ...moneyColumn, default: 0 })
  inputPricePerMillion!: number;

  @Column({ name: 'output_price_per_million', ...moneyColumn, default: 0 })
  outputPricePerMillion!: number;

  @Column({ name: 'max_tokens', type: 'int', default: 4096 })
  maxTokens!: number;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive!: boolean;

  /** Removing a model only hides it. */
  @Column({ name: 'is_visible', type: 'boolean', default: true })
  isVisible!: boolean;

  /** The primary model; at most one row (partial unique index). */
  @Column({ name: 'is_live', type: 'boolean', default: false })
  isLive!: boolean;

  /** At most one row (partial unique index). */
  @Column({ name: 'is_fallback', type: 'boolean', default: false })
  isFallback!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
