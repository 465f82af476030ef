import { ApiError, callEndpoint, callEndpointWithHeaders } from '@sprout/ui';
import {
  type EndpointRequest,
  SURVEY_DELIVERIES_TOTAL_HEADER,
  SURVEY_FAILURES,
  type SurveyCampaignDto,
  type SurveyDeliveryDto,
  api,
} from '@sprout/contracts';

export type CreateCampaignBody = EndpointRequest<typeof api.surveys.create>['body'];
export type CampaignAction = 'pause' | 'start';

/**
 * Runs a call whose failure the spec names (§8: 'Failed to create campaign' and so on): a non-OK
 * answer is an ApiError with that message and the server's body; no answer at all is an Error
 * with that message too.
 */
async function failingAs<T>(failure: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new Error(failure, { cause: error });
  }
}

/** GET /api/admin/survey-campaigns: every campaign, newest first. */
export function getSurveyCampaigns(): Promise<SurveyCampaignDto[]> {
  return callEndpoint(api.surveys.list, {}, { failureMessage: SURVEY_FAILURES.list });
}

/** A campaign's deliveries (latest delivered first, then pending) and how many it has in all. */
export async function getSurveyDeliveries(
  id: string,
): Promise<{ deliveries: SurveyDeliveryDto[]; total: number }> {
  const { body, headers } = await callEndpointWithHeaders(
    api.surveys.deliveries,
    { params: { id } },
    { failureMessage: SURVEY_FAILURES.deliveries },
  );
  const total = Number(headers.get(SURVEY_DELIVERIES_TOTAL_HEADER));
  return { deliveries: body, total: Number.isFinite(total) && total > body.length ? total : body.length };
}

export function createSurveyCampaign(body: CreateCampaignBody): Promise<SurveyCampaignDto> {
  return failingAs(SURVEY_FAILURES.create, async () => {
    const answer = await callEndpoint(
      api.surveys.create,
      { body },
      { failureMessage: SURVEY_FAILURES.create },
    );
    return answer.campaign;
  });
}

/** POST .../pause or .../start. */
export function changeSurveyCampaign(id: string, action: CampaignAction): Promise<SurveyCampaignDto> {
  const failure = SURVEY_FAILURES.action(action);
  return failingAs(failure, async () => {
    const definition = action === 'pause' ? api.surveys.pause : api.surveys.start;
    return (await callEndpoint(definition, { params: { id } }, { failureMessage: failure })).campaign;
  });
}

export function updateSurveyUrl(id: string, surveyUrl: string): Promise<SurveyCampaignDto> {
  return failingAs(SURVEY_FAILURES.updateUrl, async () => {
    const answer = await callEndpoint(
      api.surveys.update,
      { params: { id }, body: { surveyUrl } },
      { failureMessage: SURVEY_FAILURES.updateUrl },
    );
    return answer.campaign;
  });
}
