import { Check, Entity, Index, Unique } from 'typeorm';
import {
  BooleanColumn,
  CreatedAtColumn,
  IdColumn,
  IntColumn,
  MoneyColumn,
  UpdatedAtColumn,
  VarcharColumn,
} from './columns';

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
  @IdColumn('ai_models')
  id!: string;

  /** Provider model name, e.g. gpt-4o-mini. */
  @VarcharColumn('name')
  name!: string;

  @VarcharColumn('display_name', { nullable: true })
  displayName!: string | null;

  @MoneyColumn('input_price_per_million', { default: 0 })
  inputPricePerMillion!: number;

  @MoneyColumn('output_price_per_million', { default: 0 })
  outputPricePerMillion!: number;

  @IntColumn('max_tokens', { default: 4096 })
  maxTokens!: number;

  @BooleanColumn('is_active', { default: true })
  isActive!: boolean;

  /** Removing a model only hides it. */
  @BooleanColumn('is_visible', { default: true })
  isVisible!: boolean;

  /** The primary model; at most one row (partial unique index). */
  @BooleanColumn('is_live', { default: false })
  isLive!: boolean;

  /** At most one row (partial unique index). */
  @BooleanColumn('is_fallback', { default: false })
  isFallback!: boolean;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
