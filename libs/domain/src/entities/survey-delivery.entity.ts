import {
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
import { Conversation } from './conversation.entity';
import { Message } from './message.entity';
import { SurveyCampaign } from './survey-campaign.entity';
import { User } from './user.entity';

/** Exists from the moment a user is targeted; conversationId stays null ("Pending") until delivered. */
@Entity({ name: 'survey_deliveries' })
@Unique('uq_survey_deliveries_campaign_id_user_id', ['campaignId', 'userId'])
@Index('idx_survey_deliveries_user_id', ['userId'])
@Index('idx_survey_deliveries_pending_user_id', ['userId'], { where: '"conversation_id" IS NULL' })
@Index('idx_survey_deliveries_campaign_id_delivered_at', { synchronize: false }) // (campaign_id, delivered_at DESC) WHERE delivered_at IS NOT NULL
export class SurveyDelivery {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_survey_deliveries' })
  id!: string;

  @Column({ name: 'campaign_id', type: 'uuid' })
  campaignId!: string;

  @ManyToOne(() => SurveyCampaign, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'campaign_id', foreignKeyConstraintName: 'fk_survey_deliveries_campaign_id' })
  campaign?: Relation<SurveyCampaign>;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_survey_deliveries_user_id' })
  user?: Relation<User>;

  @Column({ name: 'conversation_id', type: 'uuid', nullable: true })
  conversationId!: string | null;

  @ManyToOne(() => Conversation, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'conversation_id', foreignKeyConstraintName: 'fk_survey_deliveries_conversation_id' })
  conversation?: Relation<Conversation> | null;

  @Column({ name: 'message_id', type: 'uuid', nullable: true })
  messageId!: string | null;

  @ManyToOne(() => Message, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'fk_survey_deliveries_message_id' })
  message?: Relation<Message> | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
