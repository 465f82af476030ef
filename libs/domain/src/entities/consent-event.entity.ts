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
import { CONSENT_EVENT_TYPES, CONSENT_SOURCES, type ConsentEventType, type ConsentSource } from '../types';
import { Message } from './message.entity';
import { User } from './user.entity';

/** Audit trail of STOP / START / HELP, whichever channel it came from. */
@Entity({ name: 'consent_events' })
@Check('chk_consent_events_type', inList('type', CONSENT_EVENT_TYPES))
@Check('chk_consent_events_source', inList('source', CONSENT_SOURCES))
@Index('idx_consent_events_user_id_created_at', ['userId', 'createdAt'])
@Index('idx_consent_events_message_id', ['messageId'])
@Index('idx_consent_events_reply_message_id', ['replyMessageId'])
export class ConsentEvent {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_consent_events' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_consent_events_user_id' })
  user?: Relation<User>;

  @Column({ name: 'type', type: 'varchar' })
  type!: ConsentEventType;

  /** The keyword as received (STOP, UNSUBSCRIBE, START, HELP...). */
  @Column({ name: 'keyword', type: 'varchar', nullable: true })
  keyword!: string | null;

  @Column({ name: 'source', type: 'varchar' })
  source!: ConsentSource;

  /** The message that caused the event: the inbound keyword, or the outbound one Twilio refused. */
  @Column({ name: 'message_id', type: 'uuid', nullable: true })
  messageId!: string | null;

  @ManyToOne(() => Message, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'fk_consent_events_message_id' })
  message?: Relation<Message> | null;

  /** The confirmation Sprout sent for this event (an opted-out user still gets this one). */
  @Column({ name: 'reply_message_id', type: 'uuid', nullable: true })
  replyMessageId!: string | null;

  @ManyToOne(() => Message, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'reply_message_id', foreignKeyConstraintName: 'fk_consent_events_reply_message_id' })
  replyMessage?: Relation<Message> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
