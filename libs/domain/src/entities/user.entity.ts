import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { inList } from '../sql';
import { SENTIMENTS, type Sentiment, TIPS_STATUSES, type TipsStatus, type UserProfile } from '../types';
import {
  BooleanColumn,
  CountColumn,
  CreatedAtColumn,
  IdColumn,
  IntColumn,
  MoneyColumn,
  TestUserColumn,
  TimestampColumn,
  UpdatedAtColumn,
  VarcharColumn,
} from './columns';

@Entity({ name: 'users' })
@Unique('uq_users_phone_number', ['phoneNumber'])
@Check('chk_users_profile_completion_score', '"profile_completion_score" BETWEEN 0 AND 100')
@Check('chk_users_average_sentiment', inList('average_sentiment', SENTIMENTS))
@Check('chk_users_tips_status', inList('tips_status', TIPS_STATUSES))
@Index('idx_users_tips_subscribed', { synchronize: false }) // (id) WHERE tips_status = 'subscribed'
@Index('idx_users_last_message_at', { synchronize: false }) // (last_message_at DESC)
@Index('idx_users_created_at', ['createdAt'])
@Index('idx_users_phone_number_pattern', { synchronize: false }) // (phone_number text_pattern_ops) INCLUDE (is_test_user, last_message_at, created_at, id): prefix search
@Index('idx_users_phone_number_trgm', { synchronize: false }) // gin (phone_number gin_trgm_ops): substring search
@Index('idx_users_is_test_user_recent', { synchronize: false }) // (is_test_user, last_message_at DESC, id) INCLUDE (phone_number)
@Index('idx_users_sort_phone', { synchronize: false }) // (is_test_user, <phone key>, id): the Users table sorted by that column (migration 1796200000000)
@Index('idx_users_sort_region', { synchronize: false }) // (is_test_user, <region key>, id): the Users table sorted by that column (migration 1796200000000)
@Index('idx_users_sort_active', { synchronize: false }) // (is_test_user, <active key>, id): the Users table sorted by that column (migration 1796200000000)
@Index('idx_users_sort_messages', { synchronize: false }) // (is_test_user, <messages key>, id): the Users table sorted by that column (migration 1796200000000)
@Index('idx_users_sort_engagement', { synchronize: false }) // (is_test_user, <engagement key>, id): the Users table sorted by that column (migration 1796200000000)
@Index('idx_users_sort_sentiment', { synchronize: false }) // (is_test_user, <sentiment key>, id): the Users table sorted by that column (migration 1796200000000)
@Index('idx_users_sort_cost', { synchronize: false }) // (is_test_user, <cost key>, id): the Users table sorted by that column (migration 1796200000000)
@Index('idx_users_sort_profile', { synchronize: false }) // (is_test_user, <profile key>, id): the Users table sorted by that column (migration 1796200000000)
@Index('idx_users_sort_created', { synchronize: false }) // (is_test_user, <created key>, id): the Users table sorted by that column (migration 1796200000000)
@Index('idx_users_sort_last_message', { synchronize: false }) // (is_test_user, <last_message key>, id): the Users table sorted by that column (migration 1796200000000)
export class User {
  @IdColumn('users')
  id!: string;

  /** E.164, e.g. +15035550123. */
  @VarcharColumn('phone_number')
  phoneNumber!: string;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;

  @BooleanColumn('is_active', { default: true })
  isActive!: boolean;

  @TimestampColumn('last_message_at', { nullable: true })
  lastMessageAt!: Date | null;

  @IntColumn('profile_completion_score', { default: 0 })
  profileCompletionScore!: number;

  @VarcharColumn('zip_code', { nullable: true })
  zipCode!: string | null;

  @VarcharColumn('region', { nullable: true })
  region!: string | null;

  @VarcharColumn('city', { nullable: true })
  city!: string | null;

  @VarcharColumn('state', { nullable: true })
  state!: string | null;

  @VarcharColumn('hardiness_zone', { nullable: true })
  hardinessZone!: string | null;

  @Column({ name: 'profile', type: 'jsonb', default: () => "'{}'" })
  profile!: UserProfile;

  @BooleanColumn('location_refused', { default: false })
  locationRefused!: boolean;

  @TimestampColumn('location_asked_at', { nullable: true })
  locationAskedAt!: Date | null;

  @BooleanColumn('opted_out', { default: false })
  optedOut!: boolean;

  @TimestampColumn('opted_out_at', { nullable: true })
  optedOutAt!: Date | null;

  /** Garden calendar tips: TIPS subscribes, TIPS OFF or STOP unsubscribes (kept by a consent_events trigger). */
  @VarcharColumn('tips_status', { default: 'none' })
  tipsStatus!: TipsStatus;

  @TimestampColumn('tips_status_at', { nullable: true })
  tipsStatusAt!: Date | null;

  @TestUserColumn()
  isTestUser!: boolean;

  @VarcharColumn('test_user_name', { nullable: true })
  testUserName!: string | null;

  @VarcharColumn('test_user_model', { nullable: true })
  testUserModel!: string | null;

  // Denormalised counters maintained by the reply pipeline so admin lists need no aggregation.
  @CountColumn('total_messages')
  totalMessages!: number;

  @CountColumn('total_tokens')
  totalTokens!: number;

  @MoneyColumn('total_cost', { default: 0 })
  totalCost!: number;

  /** What sending them messages cost (messages.sms_cost summed as each is sent); `totalCost` is the AI's. */
  @MoneyColumn('total_sms_cost', { default: 0 })
  totalSmsCost!: number;

  @VarcharColumn('average_sentiment', { nullable: true })
  averageSentiment!: Sentiment | null;
}
