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

  @Column({ name: 'message_id', type: 'uuid', nullable: true })
  messageId!: string | null;

  @ManyToOne(() => Message, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'fk_consent_events_message_id' })
  message?: Relation<Message> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
