import { Check, Column, Entity, Index, type Relation } from 'typeorm';
import { inList } from '../sql';
import { AWAITING_REPLY_QUEUES, type AwaitingReplyQueue } from '../types';
import { Reference, TimestampColumn, VarcharColumn } from './columns';
import { Message } from './message.entity';

/**
 * The outbox of what this deployment still owes a sender: a text to answer or a keyword's
 * confirmation to send. Written by record_inbound() with the message, deleted when it is settled;
 * the inbound sweep reads only this table (awaiting-replies/awaiting-replies.ts).
 */
@Entity({ name: 'awaiting_replies' })
@Check('chk_awaiting_replies_queue', inList('queue', AWAITING_REPLY_QUEUES))
@Index('idx_awaiting_replies_created_at', ['createdAt'])
export class AwaitingReply {
  /** The message the job handles: the inbound text (sms.inbound), or the confirmation (sms.outbound). */
  @Reference('awaiting_replies', () => Message, { primaryKey: true })
  messageId!: string;
  message?: Relation<Message>;

  @VarcharColumn('queue')
  queue!: AwaitingReplyQueue;

  /** The message's own time (an import's `at` included), so the sweep's ages are the text's. */
  @TimestampColumn('created_at', { default: () => 'now()' })
  createdAt!: Date;

  /** Times the sweep enqueued or retried its job; past SMS_INBOUND_SWEEP_MAX_ATTEMPTS it gives up. */
  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts!: number;

  @TimestampColumn('last_attempt_at', { nullable: true })
  lastAttemptAt!: Date | null;
}
