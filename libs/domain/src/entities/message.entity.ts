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
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { inList } from '../sql';
import { moneyColumn } from '../transformers';
import {
  MESSAGE_DIRECTIONS,
  MESSAGE_ENCODINGS,
  MESSAGE_KINDS,
  MESSAGE_STATUSES,
  SENTIMENTS,
  type MessageDirection,
  type MessageEncoding,
  type MessageKind,
  type MessageLocationHint,
  type MessageMedia,
  type MessageStatus,
  type Sentiment,
} from '../types';
import { Conversation } from './conversation.entity';
import { User } from './user.entity';

@Entity({ name: 'messages' })
@Unique('uq_messages_provider_sid', ['providerSid'])
@Check('chk_messages_direction', inList('direction', MESSAGE_DIRECTIONS))
@Check('chk_messages_status', inList('status', MESSAGE_STATUSES))
@Check('chk_messages_kind', inList('kind', MESSAGE_KINDS))
@Check('chk_messages_encoding', inList('encoding', MESSAGE_ENCODINGS))
@Check('chk_messages_sentiment', inList('sentiment', SENTIMENTS))
@Index('idx_messages_created_at', ['createdAt'])
@Index('idx_messages_conversation_id_created_at', ['conversationId', 'createdAt'])
@Index('idx_messages_user_id_created_at', ['userId', 'createdAt'])
@Index('idx_messages_is_test_user_created_at', { synchronize: false }) // (is_test_user, created_at) INCLUDE (user_id, direction, response_time_ms)
@Index('idx_messages_failed_created_at', ['createdAt'], { where: `"status" IN ('failed', 'undelivered')` })
@Index('idx_messages_with_media_created_at', ['createdAt'], { where: `"media" <> '[]'::jsonb` })
export class Message {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_messages' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_messages_user_id' })
  user?: Relation<User>;

  @Column({ name: 'conversation_id', type: 'uuid' })
  conversationId!: string;

  @ManyToOne(() => Conversation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id', foreignKeyConstraintName: 'fk_messages_conversation_id' })
  conversation?: Relation<Conversation>;

  @Column({ name: 'direction', type: 'varchar' })
  direction!: MessageDirection;

  @Column({ name: 'content', type: 'text' })
  content!: string;

  @Column({ name: 'status', type: 'varchar' })
  status!: MessageStatus;

  /** Twilio MessageSid; the idempotency key of inbound webhooks and status callbacks. */
  @Column({ name: 'provider_sid', type: 'varchar', nullable: true })
  providerSid!: string | null;

  @Column({ name: 'error_code', type: 'varchar', nullable: true })
  errorCode!: string | null;

  @Column({ name: 'error_message', type: 'text', nullable: true })
  errorMessage!: string | null;

  @Column({ name: 'segments', type: 'int', nullable: true })
  segments!: number | null;

  @Column({ name: 'encoding', type: 'varchar', nullable: true })
  encoding!: MessageEncoding | null;

  @Column({ name: 'media', type: 'jsonb', default: () => "'[]'" })
  media!: MessageMedia[];

  /** Inbound SMS: the carrier's location of the sender's number (Twilio FromZip etc.). */
  @Column({ name: 'location_hint', type: 'jsonb', nullable: true })
  locationHint!: MessageLocationHint | null;

  @Column({ name: 'image_processed', type: 'boolean', nullable: true })
  imageProcessed!: boolean | null;

  @Column({ name: 'image_content_type', type: 'varchar', nullable: true })
  imageContentType!: string | null;

  @Column({ name: 'image_processing_error', type: 'text', nullable: true })
  imageProcessingError!: string | null;

  @Column({ name: 'image_analysis', type: 'text', nullable: true })
  imageAnalysis!: string | null;

  @Column({ name: 'cost', ...moneyColumn, default: 0 })
  cost!: number;

  /**
   * What sending it cost at the provider's list price (segments, or one MMS), written once when
   * the provider accepted it; null while unsent, for inbound, test users' and messages sent before
   * SMS cost was recorded. `cost` is the AI's share.
   */
  @Column({ name: 'sms_cost', ...moneyColumn, nullable: true })
  smsCost!: number | null;

  @Column({ name: 'token_usage', type: 'int', default: 0 })
  tokenUsage!: number;

  @Column({ name: 'model_used', type: 'varchar', nullable: true })
  modelUsed!: string | null;

  @Column({ name: 'response_time_ms', type: 'int', nullable: true })
  responseTimeMs!: number | null;

  @Column({ name: 'sentiment', type: 'varchar', nullable: true })
  sentiment!: Sentiment | null;

  @Column({ name: 'topics', type: 'text', array: true, default: () => "'{}'" })
  topics!: string[];

  @Column({ name: 'is_test_user', type: 'boolean', default: false })
  isTestUser!: boolean;

  @Column({ name: 'kind', type: 'varchar', default: 'reply' })
  kind!: MessageKind;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;
}
