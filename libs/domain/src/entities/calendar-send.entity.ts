import { Check, Entity, Index, type Relation, Unique } from 'typeorm';
import { inList } from '../sql';
import {
  CALENDAR_SEND_KINDS,
  CALENDAR_SEND_STATUSES,
  type CalendarSendKind,
  type CalendarSendStatus,
} from '../types';
import { CreatedAtColumn, IdColumn, Reference, TextColumn, TimestampColumn, VarcharColumn } from './columns';
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
  @IdColumn('calendar_sends')
  id!: string;

  @Reference('calendar_sends', () => User)
  userId!: string;
  user?: Relation<User>;

  @VarcharColumn('kind')
  kind!: CalendarSendKind;

  /** "tomatoes:start-indoors:2027" for a tip, "alert:<weather alert id>" for an alert. */
  @VarcharColumn('task_key')
  taskKey!: string;

  /** When it goes out: inside 9:00-20:00 in the user's own time zone. */
  @TimestampColumn('scheduled_for')
  scheduledFor!: Date;

  @VarcharColumn('status', { default: 'scheduled' })
  status!: CalendarSendStatus;

  /** Why it was skipped or cancelled: opted_out, tips_off, monthly_cap, paused, stale, no_zip. */
  @VarcharColumn('skip_reason', { nullable: true })
  skipReason!: string | null;

  @TextColumn('body')
  body!: string;

  /** The outbound message once sent: its delivery status and cost. */
  @Reference('calendar_sends', () => Message, { optional: true })
  messageId!: string | null;
  message?: Relation<Message> | null;

  @Reference('calendar_sends', () => WeatherAlert, { optional: true })
  weatherAlertId!: string | null;
  weatherAlert?: Relation<WeatherAlert> | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @TimestampColumn('sent_at', { nullable: true })
  sentAt!: Date | null;
}
