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
} from 'typeorm';
import { inList } from '../sql';
import {
  CALENDAR_SEND_KINDS,
  CALENDAR_SEND_STATUSES,
  type CalendarSendKind,
  type CalendarSendStatus,
} from '../types';
import { Message } from './message.entity';
import { User } from './user.entity';
import { WeatherAlert } from './weather-alert.entity';

/**
 * One garden calendar text a subscriber is due: a dated tip or a weather alert. UNIQUE(user, task
 * key) is what makes a task go out at most once, however often the scheduler runs.
 */
@Entity({ name: 'calendar_sends' })
@Unique('uq_calendar_sends_user_task', ['userId', 'taskKey'])
@Check('chk_calendar_sends_kind', inList('kind', CALENDAR_SEND_KINDS))
@Check('chk_calendar_sends_status', inList('status', CALENDAR_SEND_STATUSES))
@Index('idx_calendar_sends_due', { synchronize: false }) // (scheduled_for) WHERE status = 'scheduled'
@Index('idx_calendar_sends_user_scheduled', ['userId', 'scheduledFor'])
@Index('idx_calendar_sends_sent_at', { synchronize: false }) // (sent_at) WHERE sent_at IS NOT NULL
@Index('idx_calendar_sends_message_id', ['messageId'])
@Index('idx_calendar_sends_weather_alert_id', ['weatherAlertId'])
export class CalendarSend {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_calendar_sends' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_calendar_sends_user_id' })
  user?: Relation<User>;

  @Column({ name: 'kind', type: 'varchar' })
  kind!: CalendarSendKind;

  /** "tomatoes:start-indoors:2027" for a tip, "alert:<weather alert id>" for an alert. */
  @Column({ name: 'task_key', type: 'varchar' })
  taskKey!: string;

  /** When it goes out: inside 9:00-20:00 in the user's own time zone. */
  @Column({ name: 'scheduled_for', type: 'timestamptz' })
  scheduledFor!: Date;

  @Column({ name: 'status', type: 'varchar', default: 'scheduled' })
  status!: CalendarSendStatus;

  /** Why it was skipped or cancelled: opted_out, tips_off, monthly_cap, paused, stale, no_zip. */
  @Column({ name: 'skip_reason', type: 'varchar', nullable: true })
  skipReason!: string | null;

  @Column({ name: 'body', type: 'text' })
  body!: string;

  /** The outbound message once sent: its delivery status and cost. */
  @Column({ name: 'message_id', type: 'uuid', nullable: true })
  messageId!: string | null;

  @ManyToOne(() => Message, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'fk_calendar_sends_message_id' })
  message?: Relation<Message> | null;

  @Column({ name: 'weather_alert_id', type: 'uuid', nullable: true })
  weatherAlertId!: string | null;

  @ManyToOne(() => WeatherAlert, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'weather_alert_id', foreignKeyConstraintName: 'fk_calendar_sends_weather_alert_id' })
  weatherAlert?: Relation<WeatherAlert> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;
}
