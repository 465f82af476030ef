import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  type CreateSurveyCampaignRequest,
  SURVEY_CAMPAIGN_NOT_FOUND,
  type SurveyCampaignDto,
  type SurveyDeliveryDto,
  campaignTransitionRefusal,
} from '@sprout/contracts';
import {
  type CampaignRow,
  createSurveyCampaign,
  moveSurveyCampaign,
  setSurveyCampaignUrl,
  surveyCampaignDeliveries,
  surveyCampaignStatus,
  surveyCampaignTargetTotal,
  surveyCampaigns,
} from '@sprout/domain';
import { JobQueues, LOGGER } from '@sprout/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

const toDto = (row: CampaignRow): SurveyCampaignDto => ({
  id: row.id,
  name: row.name,
  surveyUrl: row.survey_url,
  status: row.status,
  startDate: row.start_date.toISOString(),
  endDate: row.end_date?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  deliveredCount: row.delivered_count,
  totalTargetUsers: row.total_target_users,
  targetNewUsers: row.target_new_users,
  targetExistingUsers: row.target_existing_users,
});

/**
 * Survey campaigns for the console. Status changes are single conditional statements (libs/domain
 * surveys), so an admin's action and the survey-scheduler's run never overwrite each other;
 * targeting and date-driven changes are the scheduler's (survey.lifecycle), told at once here.
 */
@Injectable()
export class SurveysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Every campaign, newest first. */
  async list(): Promise<SurveyCampaignDto[]> {
    return (await surveyCampaigns(this.dataSource)).map(toDto);
  }

  /** Live from now; the scheduler targets its audience in the background. */
  async create(request: CreateSurveyCampaignRequest): Promise<SurveyCampaignDto> {
    const row = await createSurveyCampaign(this.dataSource, request);
    if (row === undefined) throw new Error('The campaign was not created');
    await this.tellScheduler(row.id);
    return toDto(row);
  }

  /** live → paused; anything else is a 409 with the reason. */
  async pause(id: string): Promise<SurveyCampaignDto> {
    return this.move(id, 'pause');
  }

  /** paused → live while the end date has not passed; anything else is a 409 with the reason. */
  async start(id: string): Promise<SurveyCampaignDto> {
    const campaign = await this.move(id, 'start');
    await this.tellScheduler(id);
    return campaign;
  }

  /** Pending deliveries carry the new URL: a reply reads it when it attaches the link. */
  async updateUrl(id: string, surveyUrl: string): Promise<SurveyCampaignDto> {
    const row = await setSurveyCampaignUrl(this.dataSource, id, surveyUrl);
    if (row === undefined) throw new NotFoundException(SURVEY_CAMPAIGN_NOT_FOUND);
    return toDto(row);
  }

  /**
   * The latest delivered first (a partial index of the delivered ones), then pending ones (the
   * campaign+user index), `limit` in all; the total is the campaign's totalTargetUsers.
   */
  async deliveries(id: string, limit: number): Promise<{ deliveries: SurveyDeliveryDto[]; total: number }> {
    const total = await surveyCampaignTargetTotal(this.dataSource, id);
    if (total === undefined) throw new NotFoundException(SURVEY_CAMPAIGN_NOT_FOUND);
    const rows = await surveyCampaignDeliveries(this.dataSource, id, limit);
    return {
      deliveries: rows.map((r) => ({
        id: r.id,
        phoneNumber: r.phone_number,
        deliveredAt: r.delivered_at?.toISOString() ?? null,
        conversationId: r.conversation_id,
      })),
      total,
    };
  }

  /** One conditional status change; when it does not apply, 404 or 409 with the reason. */
  private async move(id: string, action: 'pause' | 'start'): Promise<SurveyCampaignDto> {
    const moved = await moveSurveyCampaign(this.dataSource, id, action);
    if (moved !== undefined) {
      this.logger.info({ campaignId: id, action }, 'survey campaign changed');
      return toDto(moved);
    }
    const current = await surveyCampaignStatus(this.dataSource, id);
    if (current === undefined) throw new NotFoundException(SURVEY_CAMPAIGN_NOT_FOUND);
    throw new ConflictException(
      campaignTransitionRefusal(action, current.status, current.end_date?.toISOString() ?? null),
    );
  }

  /**
   * Asks the survey-scheduler to run for this campaign now. A failure is only logged: the change
   * is saved, and the scheduler's every-minute run picks the campaign up anyway.
   */
  private async tellScheduler(campaignId: string): Promise<void> {
    try {
      await this.queues.enqueue('survey.lifecycle', { campaignId });
    } catch (error) {
      this.logger.warn(
        { err: error, campaignId },
        'survey.lifecycle not enqueued; the next scheduled run applies it',
      );
    }
  }
}
