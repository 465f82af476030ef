import { Check, Entity, Index, type Relation } from 'typeorm';
import { inList } from '../sql';
import { SENTIMENTS, type Sentiment } from '../types';
import {
  CountColumn,
  IdColumn,
  Reference,
  TestUserColumn,
  TextColumn,
  TimestampColumn,
  VarcharColumn,
} from './columns';
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
  @IdColumn('conversations')
  id!: string;

  @Reference('conversations', () => User)
  userId!: string;
  user?: Relation<User>;

  @TimestampColumn('started_at', { default: () => 'now()' })
  startedAt!: Date;

  @TimestampColumn('last_message_at', { default: () => 'now()' })
  lastMessageAt!: Date;

  @TimestampColumn('ended_at', { nullable: true })
  endedAt!: Date | null;

  @CountColumn('message_count')
  messageCount!: number;

  @VarcharColumn('sentiment', { nullable: true })
  sentiment!: Sentiment | null;

  @TextColumn('topics', { array: true, default: () => "'{}'" })
  topics!: string[];

  @TextColumn('summary', { nullable: true })
  summary!: string | null;

  @TextColumn('key_outcomes', { nullable: true })
  keyOutcomes!: string | null;

  @TextColumn('next_steps', { nullable: true })
  nextSteps!: string | null;

  @VarcharColumn('region', { nullable: true })
  region!: string | null;

  @VarcharColumn('experience_level', { nullable: true })
  experienceLevel!: string | null;

  @VarcharColumn('model_used', { nullable: true })
  modelUsed!: string | null;

  @TestUserColumn()
  isTestUser!: boolean;

  /** Lower-cased summary, region and topics for the console's search; the database fills it (trigger). */
  @TextColumn('search_text', { default: '', select: false, insert: false, update: false })
  searchText?: string;

  @TimestampColumn('summarized_at', { nullable: true })
  summarizedAt!: Date | null;
}
