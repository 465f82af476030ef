import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { inList } from '../sql';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../types';

@Entity({ name: 'survey_campaigns' })
@Check('chk_survey_campaigns_status', inList('status', CAMPAIGN_STATUSES))
export class SurveyCampaign {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_survey_campaigns' })
  id!: string;

  @Column({ name: 'name', type: 'varchar' })
  name!: string;

  @Column({ name: 'survey_url', type: 'text' })
  surveyUrl!: string;

  @Column({ name: 'status', type: 'varchar', default: 'scheduled' })
  status!: CampaignStatus;

  @Column({ name: 'start_date', type: 'timestamptz', default: () => 'now()' })
  startDate!: Date;

  @Column({ name: 'end_date', type: 'timestamptz', nullable: true })
  endDate!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Plus the rows of survey_campaign_delivered_shards (replies count there, see the migration). */
  @Column({ name: 'delivered_count', type: 'int', default: 0 })
  deliveredCount!: number;

  @Column({ name: 'total_target_users', type: 'int', default: 0 })
  totalTargetUsers!: number;

  @Column({ name: 'target_new_users', type: 'boolean', default: true })
  targetNewUsers!: boolean;

  @Column({ name: 'target_existing_users', type: 'boolean', default: true })
  targetExistingUsers!: boolean;

  /**
   * The targeting walk's position (survey-scheduler): users are visited in (created_at, id) order,
   * and every user up to this pair has been considered. Null: the walk has not started.
   */
  @Column({ name: 'targeted_through_created_at', type: 'timestamptz', nullable: true })
  targetedThroughCreatedAt!: Date | null;

  @Column({ name: 'targeted_through_user_id', type: 'uuid', nullable: true })
  targetedThroughUserId!: string | null;
}
