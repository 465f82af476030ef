import { Check, Column, Entity, Index, type Relation, Unique } from 'typeorm';
import { inList } from '../sql';
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
import {
  BooleanColumn,
  CountColumn,
  CreatedAtColumn,
  IdColumn,
  IntColumn,
  MoneyColumn,
  Reference,
  TestUserColumn,
  TextColumn,
  TimestampColumn,
  UpdatedAtColumn,
  VarcharColumn,
} from './columns';
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
  @IdColumn('messages')
  id!: string;

  @Reference('messages', () => User)
  userId!: string;
  user?: Relation<User>;

  @Reference('messages', () => Conversation)
  conversationId!: string;
  conversation?: Relation<Conversation>;

  @VarcharColumn('direction')
  direction!: MessageDirection;

  @TextColumn('content')
  content!: string;

  @VarcharColumn('status')
  status!: MessageStatus;

  /** Twilio MessageSid; the idempotency key of inbound webhooks and status callbacks. */
  @VarcharColumn('provider_sid', { nullable: true })
  providerSid!: string | null;

  @VarcharColumn('error_code', { nullable: true })
  errorCode!: string | null;

  @TextColumn('error_message', { nullable: true })
  errorMessage!: string | null;

  @IntColumn('segments', { nullable: true })
  segments!: number | null;

  @VarcharColumn('encoding', { nullable: true })
  encoding!: MessageEncoding | null;

  @Column({ name: 'media', type: 'jsonb', default: () => "'[]'" })
  media!: MessageMedia[];

  /** Inbound SMS: the carrier's location of the sender's number (Twilio FromZip etc.). */
  @Column({ name: 'location_hint', type: 'jsonb', nullable: true })
  locationHint!: MessageLocationHint | null;

  @BooleanColumn('image_processed', { nullable: true })
  imageProcessed!: boolean | null;

  @VarcharColumn('image_content_type', { nullable: true })
  imageContentType!: string | null;

  @TextColumn('image_processing_error', { nullable: true })
  imageProcessingError!: string | null;

  @TextColumn('image_analysis', { nullable: true })
  imageAnalysis!: string | null;

  @MoneyColumn('cost', { default: 0 })
  cost!: number;

  /**
   * What sending it cost at the provider's list price (segments, or one MMS), written once when
   * the provider accepted it; null while unsent, for inbound, test users' and messages sent before
   * SMS cost was recorded. `cost` is the AI's share.
   */
  @MoneyColumn('sms_cost', { nullable: true })
  smsCost!: number | null;

  @CountColumn('token_usage')
  tokenUsage!: number;

  @VarcharColumn('model_used', { nullable: true })
  modelUsed!: string | null;

  @IntColumn('response_time_ms', { nullable: true })
  responseTimeMs!: number | null;

  @VarcharColumn('sentiment', { nullable: true })
  sentiment!: Sentiment | null;

  @TextColumn('topics', { array: true, default: () => "'{}'" })
  topics!: string[];

  @TestUserColumn()
  isTestUser!: boolean;

  @VarcharColumn('kind', { default: 'reply' })
  kind!: MessageKind;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;

  @TimestampColumn('sent_at', { nullable: true })
  sentAt!: Date | null;

  @TimestampColumn('delivered_at', { nullable: true })
  deliveredAt!: Date | null;
}
