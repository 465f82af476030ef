import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { inList } from '../sql';
import { moneyColumn } from '../transformers';
import { SENTIMENTS, type Sentiment, TIPS_STATUSES, type TipsStatus, type UserProfile } from '../types';

@Entity({ name: 'users' })
@Unique('uq_users_phone_number', ['phoneNumber'])
@Check('chk_users_profile_completion_score', '"profile_completion_score" BETWEEN 0 AND 100')
@Check('chk_users_average_sentiment', inList('average_sentiment', SENTIMENTS))
@Check('chk_users_tips_status', inList('tips_status', TIPS_STATUSES))
@Index('idx_users_tips_subscribed', { synchronize: false }) // (id) WHERE tips_status = 'subscribed'
@Index('idx_users_last_message_at', { synchronize: false }) // (last_message_at DESC)
@Index('idx_users_created_at', ['createdAt'])
@Index('idx_users_is_test_user_last_message_at', ['isTestUser', 'lastMessageAt'])
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
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_users' })
  id!: string;

  /** E.164, e.g. +15035550123. */
  @Column({ name: 'phone_number', type: 'varchar' })
  phoneNumber!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive!: boolean;

  @Column({ name: 'last_message_at', type: 'timestamptz', nullable: true })
  lastMessageAt!: Date | null;

  @Column({ name: 'profile_completion_score', type: 'int', default: 0 })
  profileCompletionScore!: number;

  @Column({ name: 'zip_code', type: 'varchar', nullable: true })
  zipCode!: string | null;

  @Column({ name: 'region', type: 'varchar', nullable: true })
  region!: string | null;

  @Column({ name: 'city', type: 'varchar', nullable: true })
  city!: string | null;

  @Column({ name: 'state', type: 'varchar', nullable: true })
  state!: string | null;

  @Column({ name: 'hardiness_zone', type: 'varchar', nullable: true })
  hardinessZone!: string | null;

  @Column({ name: 'profile', type: 'jsonb', default: () => "'{}'" })
  profile!: UserProfile;

  @Column({ name: 'location_refused', type: 'boolean', default: false })
  locationRefused!: boolean;

  @Column({ name: 'location_asked_at', type: 'timestamptz', nullable: true })
  locationAskedAt!: Date | null;

  @Column({ name: 'opted_out', type: 'boolean', default: false })
  optedOut!: boolean;

  @Column({ name: 'opted_out_at', type: 'timestamptz', nullable: true })
  optedOutAt!: Date | null;

  /** Garden calendar tips: TIPS subscribes, TIPS OFF or STOP unsubscribes (kept by a consent_events trigger). */
  @Column({ name: 'tips_status', type: 'varchar', default: 'none' })
  tipsStatus!: TipsStatus;

  @Column({ name: 'tips_status_at', type: 'timestamptz', nullable: true })
  tipsStatusAt!: Date | null;

  @Column({ name: 'is_test_user', type: 'boolean', default: false })
  isTestUser!: boolean;

  @Column({ name: 'test_user_name', type: 'varchar', nullable: true })
  testUserName!: string | null;

  @Column({ name: 'test_user_model', type: 'varchar', nullable: true })
  testUserModel!: string | null;

  // Denormalised counters maintained by the reply pipeline so admin lists need no aggregation.
  @Column({ name: 'total_messages', type: 'int', default: 0 })
  totalMessages!: number;

  @Column({ name: 'total_tokens', type: 'int', default: 0 })
  totalTokens!: number;

  @Column({ name: 'total_cost', ...moneyColumn, default: 0 })
  totalCost!: number;

  /** What sending them messages cost (messages.sms_cost summed as each is sent); `totalCost` is the AI's. */
  @Column({ name: 'total_sms_cost', ...moneyColumn, default: 0 })
  totalSmsCost!: number;

  @Column({ name: 'average_sentiment', type: 'varchar', nullable: true })
  averageSentiment!: Sentiment | null;
}
