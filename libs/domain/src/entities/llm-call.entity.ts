import { Check, Entity, Index, type Relation } from 'typeorm';
import { inList } from '../sql';
import { LLM_PURPOSES, LLM_TIERS, type LlmPurpose, type LlmTier } from '../types';
import {
  CountColumn,
  CreatedAtColumn,
  IdColumn,
  IntColumn,
  MoneyColumn,
  Reference,
  TestUserColumn,
  TextColumn,
  VarcharColumn,
} from './columns';
import { Conversation } from './conversation.entity';
import { Message } from './message.entity';
import { User } from './user.entity';

/** One row per model call (or template/minimal answer); spend and usage dashboards read from here. */
@Entity({ name: 'llm_calls' })
@Check('chk_llm_calls_purpose', inList('purpose', LLM_PURPOSES))
@Check('chk_llm_calls_tier', inList('tier', LLM_TIERS))
@Index('idx_llm_calls_created_at', ['createdAt'])
@Index('idx_llm_calls_model_created_at', ['model', 'createdAt'])
@Index('idx_llm_calls_message_id', ['messageId'])
@Index('idx_llm_calls_user_id', ['userId'])
@Index('idx_llm_calls_conversation_id', ['conversationId'])
@Index('idx_llm_calls_is_test_user_created_at', { synchronize: false }) // (is_test_user, created_at) INCLUDE (cost)
export class LlmCall {
  @IdColumn('llm_calls')
  id!: string;

  @Reference('llm_calls', () => Message, { optional: true })
  messageId!: string | null;
  message?: Relation<Message> | null;

  @Reference('llm_calls', () => User, { optional: true })
  userId!: string | null;
  user?: Relation<User> | null;

  @Reference('llm_calls', () => Conversation, { optional: true })
  conversationId!: string | null;
  conversation?: Relation<Conversation> | null;

  @VarcharColumn('purpose')
  purpose!: LlmPurpose;

  /** Null for template and minimal answers, which call no model. */
  @VarcharColumn('model', { nullable: true })
  model!: string | null;

  @CountColumn('prompt_tokens')
  promptTokens!: number;

  @CountColumn('completion_tokens')
  completionTokens!: number;

  @CountColumn('total_tokens')
  totalTokens!: number;

  @MoneyColumn('cost', { default: 0 })
  cost!: number;

  @IntColumn('latency_ms', { nullable: true })
  latencyMs!: number | null;

  @VarcharColumn('tier')
  tier!: LlmTier;

  @TextColumn('error', { nullable: true })
  error!: string | null;

  @TestUserColumn()
  isTestUser!: boolean;

  @CreatedAtColumn()
  createdAt!: Date;
}
