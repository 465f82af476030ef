import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { inList } from '../sql';
import { moneyColumn } from '../transformers';
import { LLM_PURPOSES, LLM_TIERS, type LlmPurpose, type LlmTier } from '../types';
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
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_llm_calls' })
  id!: string;

  @Column({ name: 'message_id', type: 'uuid', nullable: true })
  messageId!: string | null;

  @ManyToOne(() => Message, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'fk_llm_calls_message_id' })
  message?: Relation<Message> | null;

  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId!: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_llm_calls_user_id' })
  user?: Relation<User> | null;

  @Column({ name: 'conversation_id', type: 'uuid', nullable: true })
  conversationId!: string | null;

  @ManyToOne(() => Conversation, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'conversation_id', foreignKeyConstraintName: 'fk_llm_calls_conversation_id' })
  conversation?: Relation<Conversation> | null;

  @Column({ name: 'purpose', type: 'varchar' })
  purpose!: LlmPurpose;

  /** Null for template and minimal answers, which call no model. */
  @Column({ name: 'model', type: 'varchar', nullable: true })
  model!: string | null;

  @Column({ name: 'prompt_tokens', type: 'int', default: 0 })
  promptTokens!: number;

  @Column({ name: 'completion_tokens', type: 'int', default: 0 })
  completionTokens!: number;

  @Column({ name: 'total_tokens', type: 'int', default: 0 })
  totalTokens!: number;

  @Column({ name: 'cost', ...moneyColumn, default: 0 })
  cost!: number;

  @Column({ name: 'latency_ms', type: 'int', nullable: true })
  latencyMs!: number | null;

  @Column({ name: 'tier', type: 'varchar' })
  tier!: LlmTier;

  @Column({ name: 'error', type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'is_test_user', type: 'boolean', default: false })
  isTestUser!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
