import { Entity, Index, type Relation, Unique } from 'typeorm';
import { CreatedAtColumn, IdColumn, Reference, TimestampColumn } from './columns';
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
  @IdColumn('survey_deliveries')
  id!: string;

  @Reference('survey_deliveries', () => SurveyCampaign)
  campaignId!: string;
  campaign?: Relation<SurveyCampaign>;

  @Reference('survey_deliveries', () => User)
  userId!: string;
  user?: Relation<User>;

  @Reference('survey_deliveries', () => Conversation, { optional: true })
  conversationId!: string | null;
  conversation?: Relation<Conversation> | null;

  @Reference('survey_deliveries', () => Message, { optional: true })
  messageId!: string | null;
  message?: Relation<Message> | null;

  @TimestampColumn('delivered_at', { nullable: true })
  deliveredAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
