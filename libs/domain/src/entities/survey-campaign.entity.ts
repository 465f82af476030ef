import { Check, Column, Entity } from 'typeorm';
import { inList } from '../sql';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../types';
import {
  BooleanColumn,
  CountColumn,
  CreatedAtColumn,
  IdColumn,
  TextColumn,
  TimestampColumn,
  VarcharColumn,
} from './columns';

@Entity({ name: 'survey_campaigns' })
@Check('chk_survey_campaigns_status', inList('status', CAMPAIGN_STATUSES))
export class SurveyCampaign {
  @IdColumn('survey_campaigns')
  id!: string;

  @VarcharColumn('name')
  name!: string;

  @TextColumn('survey_url')
  surveyUrl!: string;

  @VarcharColumn('status', { default: 'scheduled' })
  status!: CampaignStatus;

  @TimestampColumn('start_date', { default: () => 'now()' })
  startDate!: Date;

  @TimestampColumn('end_date', { nullable: true })
  endDate!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;

  /** Plus the rows of survey_campaign_delivered_shards (replies count there, see the migration). */
  @CountColumn('delivered_count')
  deliveredCount!: number;

  @CountColumn('total_target_users')
  totalTargetUsers!: number;

  @BooleanColumn('target_new_users', { default: true })
  targetNewUsers!: boolean;

  @BooleanColumn('target_existing_users', { default: true })
  targetExistingUsers!: boolean;

  /**
   * The targeting walk's position (survey-scheduler): users are visited in (created_at, id) order,
   * and every user up to this pair has been considered. Null: the walk has not started.
   */
  @TimestampColumn('targeted_through_created_at', { nullable: true })
  targetedThroughCreatedAt!: Date | null;

  @Column({ name: 'targeted_through_user_id', type: 'uuid', nullable: true })
  targetedThroughUserId!: string | null;
}
