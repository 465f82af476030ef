import { Check, Entity, Index, type Relation } from 'typeorm';
import { inList } from '../sql';
import { CONSENT_EVENT_TYPES, CONSENT_SOURCES, type ConsentEventType, type ConsentSource } from '../types';
import { CreatedAtColumn, IdColumn, Reference, VarcharColumn } from './columns';
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
  @IdColumn('consent_events')
  id!: string;

  @Reference('consent_events', () => User)
  userId!: string;
  user?: Relation<User>;

  @VarcharColumn('type')
  type!: ConsentEventType;

  /** The keyword as received (STOP, UNSUBSCRIBE, START, HELP...). */
  @VarcharColumn('keyword', { nullable: true })
  keyword!: string | null;

  @VarcharColumn('source')
  source!: ConsentSource;

  /** The message that caused the event: the inbound keyword, or the outbound one Twilio refused. */
  @Reference('consent_events', () => Message, { optional: true })
  messageId!: string | null;
  message?: Relation<Message> | null;

  /** The confirmation Sprout sent for this event (an opted-out user still gets this one). */
  @Reference('consent_events', () => Message, { optional: true })
  replyMessageId!: string | null;
  replyMessage?: Relation<Message> | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
