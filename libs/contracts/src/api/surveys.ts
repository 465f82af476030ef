import { z } from 'zod';
import { answer, endpoint } from '../http/endpoint';
import { idParams, textField, wholeNumberParam } from '../http/params';
import type { IsoDateTime } from './common';

// Survey campaigns: links delivered inside conversations.

export const CAMPAIGN_STATUS_VALUES = ['live', 'scheduled', 'completed', 'paused'] as const;
export type CampaignStatusValue = (typeof CAMPAIGN_STATUS_VALUES)[number];

/** One campaign (GET /api/admin/survey-campaigns answers an array). */
export interface SurveyCampaignDto {
  id: string;
  name: string;
  surveyUrl: string;
  status: CampaignStatusValue;
  startDate: IsoDateTime;
  /** Null: open-ended. */
  endDate: IsoDateTime | null;
  createdAt: IsoDateTime;
  /** Deliveries whose link went out in a reply. */
  deliveredCount: number;
  /** Users targeted so far: one delivery each, pending or delivered. */
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

/** Answer of create, pause, start and the URL change. */
export interface SurveyCampaignResponse {
  success: true;
  campaign: SurveyCampaignDto;
}

/** The create dialog's Survey URL before the admin changes it (a default form link). */
export const DEFAULT_SURVEY_URL = 'https://forms.example.com/sprout-feedback';
/**
 * Longest survey URL: the link travels by SMS after an answer, as "Quick survey: {url}", and must
 * leave room for the answer within the reply's segment budget (SMS_MAX_SEGMENTS, default 3).
 */
export const SURVEY_URL_MAX_LENGTH = 200;
export const CAMPAIGN_NAME_MAX_LENGTH = 200;

export const CAMPAIGN_NAME_REQUIRED = 'Please enter a campaign name';
export const SURVEY_URL_REQUIRED = 'Please enter a survey URL';
export const CAMPAIGN_AUDIENCE_REQUIRED = 'Please choose at least one target audience';
export const SURVEY_CAMPAIGN_NOT_FOUND = 'Survey campaign not found.';
export const INVALID_CAMPAIGN_ID = 'Campaign id must be a UUID';

/** 409 reasons: only live to paused (pause) and paused to live (start) are allowed. */
export const campaignTransitionRefusal = (
  action: 'pause' | 'start',
  status: CampaignStatusValue,
  endDate: IsoDateTime | null,
): string => {
  if (action === 'pause') return `Only a live campaign can be paused; this one is ${status}.`;
  if (status !== 'paused') return `Only a paused campaign can be resumed; this one is ${status}.`;
  return `This campaign ended on ${endDate?.slice(0, 10) ?? 'its end date'}; it cannot be resumed.`;
};

/** The thrown texts shown to the admin as error toasts. */
export const SURVEY_FAILURES = {
  create: 'Failed to create campaign',
  action: (action: 'pause' | 'start') => `Failed to ${action} campaign`,
  updateUrl: 'Failed to update survey URL',
  list: 'Failed to fetch campaigns',
  deliveries: 'Failed to fetch deliveries',
} as const;

/**
 * The URL as sent: normalised by the URL parser (ASCII, percent-encoded), with the one ASCII
 * character GSM-7 lacks (`) encoded too, so the SMS neither alters it nor switches to UCS-2.
 */
const smsSafeUrl = (value: string): string => new URL(value).href.replaceAll('`', '%60');

const surveyUrl = textField(SURVEY_URL_REQUIRED)
  .trim()
  .min(1, { error: SURVEY_URL_REQUIRED, abort: true })
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }))
  .transform(smsSafeUrl)
  .pipe(
    z.string().max(SURVEY_URL_MAX_LENGTH, {
      error: `must be at most ${SURVEY_URL_MAX_LENGTH} characters (it is sent by SMS)`,
    }),
  );

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date-time with offset (the console sends the end of the chosen day in the admin's time zone)
 * or a date (the end of that day, UTC); null, blank or absent: no end date.
 */
const endDate = z
  .union([z.string(), z.null()], { error: 'must be a date (YYYY-MM-DD) or a date-time' })
  .optional()
  .transform((value, ctx): Date | null => {
    const text = value?.trim() ?? '';
    if (text === '') return null;
    const valid = DATE_ONLY.test(text) || z.iso.datetime({ offset: true }).safeParse(text).success;
    const at = DATE_ONLY.test(text) ? new Date(`${text}T23:59:59.999Z`) : new Date(text);
    if (!valid || Number.isNaN(at.getTime()) || at.getUTCFullYear() > 9999) {
      ctx.addIssue({ code: 'custom', message: 'must be a date (YYYY-MM-DD) or a date-time' });
      return z.NEVER;
    }
    if (at.getTime() <= Date.now()) {
      ctx.addIssue({ code: 'custom', message: 'must not be in the past' });
      return z.NEVER;
    }
    return at;
  });

const audienceSwitch = z.boolean({ error: 'must be true or false' }).default(true);
const JSON_OBJECT = { error: 'The body must be a JSON object' };

/** POST /api/admin/survey-campaigns: both audiences default on. */
export const CreateSurveyCampaignRequest = z
  .object(
    {
      name: textField(CAMPAIGN_NAME_REQUIRED)
        .trim()
        .min(1, { error: CAMPAIGN_NAME_REQUIRED, abort: true })
        .max(CAMPAIGN_NAME_MAX_LENGTH, { error: `must be at most ${CAMPAIGN_NAME_MAX_LENGTH} characters` }),
      surveyUrl,
      endDate,
      targetNewUsers: audienceSwitch,
      targetExistingUsers: audienceSwitch,
    },
    JSON_OBJECT,
  )
  .refine((body) => body.targetNewUsers || body.targetExistingUsers, { error: CAMPAIGN_AUDIENCE_REQUIRED });
export type CreateSurveyCampaignRequest = z.output<typeof CreateSurveyCampaignRequest>;

/** PATCH /api/admin/survey-campaigns/{id}: pending deliveries carry the new URL. */
export const UpdateSurveyCampaignRequest = z.object({ surveyUrl }, JSON_OBJECT);
export type UpdateSurveyCampaignRequest = z.output<typeof UpdateSurveyCampaignRequest>;

export const SURVEY_DELIVERIES_DEFAULT_LIMIT = 200;
export const SURVEY_DELIVERIES_MAX_LIMIT = 1000;
/** Header of GET .../deliveries beside its bare array: the campaign's deliveries in all. */
export const SURVEY_DELIVERIES_TOTAL_HEADER = 'x-total-count';

const CampaignIdParams = idParams(INVALID_CAMPAIGN_ID);
const TAG = 'survey campaigns';

export const surveysApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/survey-campaigns',
    access: 'admin',
    tag: TAG,
    summary: 'Every campaign, newest first, with delivered and targeted counts',
    answer: answer<SurveyCampaignDto[]>('Campaigns'),
  }),
  deliveries: endpoint({
    method: 'GET',
    path: '/api/admin/survey-campaigns/:id/deliveries',
    access: 'admin',
    tag: TAG,
    summary: "A campaign's deliveries: the latest delivered first, then the pending ones (default 200)",
    params: CampaignIdParams,
    query: z.object({
      limit: wholeNumberParam(SURVEY_DELIVERIES_DEFAULT_LIMIT, 1, SURVEY_DELIVERIES_MAX_LIMIT),
    }),
    answer: answer<SurveyDeliveryDto[]>('Deliveries'),
    answerHeaders: {
      [SURVEY_DELIVERIES_TOTAL_HEADER]: "The campaign's deliveries in all (its targeted users)",
    },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/admin/survey-campaigns',
    access: 'admin',
    tag: TAG,
    summary: 'Create a campaign, live at once; its audience is targeted in the background',
    description:
      'Existing users (there when it went live, opted in, real) get the link in their next reply; ' +
      'new users (joined since) in their second conversation. An end date in the past is refused.',
    body: CreateSurveyCampaignRequest,
    status: 201,
    answer: answer<SurveyCampaignResponse>('The new campaign'),
  }),
  pause: endpoint({
    method: 'POST',
    path: '/api/admin/survey-campaigns/:id/pause',
    access: 'admin',
    tag: TAG,
    summary: 'Pause a live campaign: no reply carries its link from now on (409 unless live)',
    params: CampaignIdParams,
    answer: answer<SurveyCampaignResponse>('The paused campaign'),
  }),
  start: endpoint({
    method: 'POST',
    path: '/api/admin/survey-campaigns/:id/start',
    access: 'admin',
    tag: TAG,
    summary: 'Resume a paused campaign (409 unless paused and before its end date)',
    params: CampaignIdParams,
    answer: answer<SurveyCampaignResponse>('The live campaign'),
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/admin/survey-campaigns/:id',
    access: 'admin',
    tag: TAG,
    summary: 'Change the survey URL (links not yet delivered carry the new one)',
    params: CampaignIdParams,
    body: UpdateSurveyCampaignRequest,
    answer: answer<SurveyCampaignResponse>('The campaign'),
  }),
} as const;
