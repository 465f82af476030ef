import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { inList } from '../sql';
import { SENTIMENTS, type Sentiment } from '../types';
import { User } from './user.entity';

/** A user's messages with gaps under the idle timeout; endedAt null means ongoing. */
@Entity({ name: 'conversations' })
@Check('chk_conversations_sentiment', inList('sentiment', SENTIMENTS))
@Index('idx_conversations_last_message_at', { synchronize: false }) // (last_message_at DESC)
@Index('idx_conversations_user_id_last_message_at', { synchronize: false }) // (user_id, last_message_at DESC)
@Index('idx_conversations_is_test_user_recent', { synchronize: false }) // (is_test_user, last_message_at DESC, id DESC)
@Index('idx_conversations_search_text_trgm', { synchronize: false }) // gin (search_text gin_trgm_ops)
@Index('idx_conversations_search_recent', { synchronize: false }) // (is_test_user, last_message_at DESC, id DESC) INCLUDE (search_text)
@Index('idx_conversations_search_words', { synchronize: false }) // gin (search_text_words(search_text))
@Index('idx_conversations_search_long', { synchronize: false }) // (last_message_at) WHERE the text is too long for it (migration 1797000000000)
export class Conversation {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_conversations' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_conversations_user_id' })
  user?: Relation<User>;

  @Column({ name: 'started_at', type: 'timestamptz', default: () => 'now()' })
  startedAt!: Date;

  @Column({ name: 'last_message_at', type: 'timestamptz', default: () => 'now()' })
  lastMessageAt!: Date;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt!: Date | null;

  @Column({ name: 'message_count', type: 'int', default: 0 })
  messageCount!: number;

  @Column({ name: 'sentiment', type: 'varchar', nullable: true })
  sentiment!: Sentiment | null;

  @Column({ name: 'topics', type: 'text', array: true, default: () => "'{}'" })
  topics!: string[];

  @Column({ name: 'summary', type: 'text', nullable: true })
  summary!: string | null;

  @Column({ name: 'key_outcomes', type: 'text', nullable: true })
  keyOutcomes!: string | null;

  @Column({ name: 'next_steps', type: 'text', nullable: true })
  nextSteps!: string | null;

  @Column({ name: 'region', type: 'varchar', nullable: true })
  region!: string | null;

  @Column({ name: 'experience_level', type: 'varchar', nullable: true })
  experienceLevel!: string | null;

  @Column({ name: 'model_used', type: 'varchar', nullable: true })
  modelUsed!: string | null;

  @Column({ name: 'is_test_user', type: 'boolean', default: false })
  isTestUser!: boolean;

  /** Lower-cased summary, region and topics for the console's search; the database fills it (trigger). */
  @Column({ name: 'search_text', type: 'text', default: '', select: false, insert: false, update: false })
  searchText?: string;

  @Column({ name: 'summarized_at', type: 'timestamptz', nullable: true })
  summarizedAt!: Date | null;
}
