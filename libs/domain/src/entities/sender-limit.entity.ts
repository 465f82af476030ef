import { Check, Column, Entity, Index, type Relation } from 'typeorm';
import { inList } from '../sql';
import { SENDER_LIMIT_WINDOWS, type SenderLimitWindow } from '../types';
import { Reference, TimestampColumn, VarcharColumn } from './columns';
import { User } from './user.entity';

/**
 * A sender's latest stretch of being over a reply limit (ai-responder counts replies per sender
 * in Redis; this row is written only when a text is refused). One row per user: a refusal after
 * `limitedUntil` starts a new stretch, and the text that starts it gets the one notice.
 */
@Entity({ name: 'sender_limits' })
@Check('chk_sender_limits_window', inList('limit_window', SENDER_LIMIT_WINDOWS))
@Index('idx_sender_limits_limited_until', ['limitedUntil'])
export class SenderLimit {
  @Reference('sender_limits', () => User, { primaryKey: true, oneToOne: true })
  userId!: string;
  user?: Relation<User>;

  /** The window whose limit keeps the sender waiting longest. */
  @VarcharColumn('limit_window')
  limitWindow!: SenderLimitWindow;

  /** Replies allowed in that window when the stretch was recorded. */
  @Column({ name: 'reply_limit', type: 'integer' })
  replyLimit!: number;

  /** The first refused text of the stretch. */
  @TimestampColumn('limited_at')
  limitedAt!: Date;

  /** When the sender is answered again. */
  @TimestampColumn('limited_until')
  limitedUntil!: Date;

  /** Texts not answered in the stretch (the first got the notice). */
  @Column({ name: 'refused', type: 'integer', default: 0 })
  refused!: number;
}
