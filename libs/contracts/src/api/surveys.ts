import { z } from 'zod';
import type { IsoDateTime } from './common';

export const CAMPAIGN_STATUS_VALUES = ['live', 'scheduled', 'completed', 'paused'] as const;
export type CampaignStatusValue = (typeof CAMPAIGN_STATUS_VALUES)[number];

/** One campaign (GET /api/admin/survey-campaigns answers an array). */
export interface SurveyCampaignDto {
  id: string;
  name: string;
  surveyUrl: string;
  status: CampaignStatusValue;
  startDate: IsoDateTime;
  endDate: IsoDateTime | null;
  createdAt: IsoDateTime;
  deliveredCount: number;
  totalTargetUsers: number;
  targetNewUsers: boolean;
  targetExistingUsers: boolean;
}

/** One delivery (GET /api/admin/survey-campaigns/{id}/deliveries answers an array). */
export interface SurveyDeliveryDto {
  id: string;
  phoneNumber: string;
  deliveredAt: IsoDateTime | null;
  /** Null until delivered in a conversation ('Pending'). */
  conversationId: string | null;
}

const surveyUrl = z.url({ protocol: /^https?$/, error: 'Survey URL must be an http(s) URL' }).max(2000);

/** POST /api/admin/survey-campaigns */
export const CreateSurveyCampaignRequest = z.object({
  name: z.string().trim().min(1, { error: 'Campaign name is required' }).max(200),
  surveyUrl,
  /** A date (YYYY-MM-DD) or date-time; empty means open-ended. */
  endDate: z
    .string()
    .trim()
    .max(40)
    .optional()
    .nullable()
    .refine((v) => v === undefined || v === null || v === '' || !Number.isNaN(Date.parse(v)), {
      error: 'End date must be a date',
    }),
  targetNewUsers: z.boolean().default(true),
  targetExistingUsers: z.boolean().default(true),
});
export type CreateSurveyCampaignRequest = z.output<typeof CreateSurveyCampaignRequest>;

/** PATCH /api/admin/survey-campaigns/{id} */
export const UpdateSurveyCampaignRequest = z.object({ surveyUrl });
export type UpdateSurveyCampaignRequest = z.output<typeof UpdateSurveyCampaignRequest>;

export interface SurveyCampaignResponse {
  success: true;
  campaign: SurveyCampaignDto;
}
