import {
  type EndpointDefinition,
  SURVEY_DELIVERIES_TOTAL_HEADER,
  SURVEY_FAILURES,
  type SurveyDeliveryDto,
  api,
  endpointKey,
} from '@sprout/contracts';
import { callEndpointWithHeaders, endpointMutation, endpointQuery, invalidateEndpoint } from '@sprout/ui';
import { type QueryClient, queryOptions } from '@tanstack/react-query';

export type CampaignAction = 'pause' | 'start';

/** The campaign list refreshes every 30 s. */
const SURVEY_CAMPAIGNS_REFRESH_MS = 30_000;

/** Every campaign, newest first. */
export const surveyCampaignsQuery = {
  ...endpointQuery(api.surveys.list, {}, { failureMessage: SURVEY_FAILURES.list }),
  refetchInterval: SURVEY_CAMPAIGNS_REFRESH_MS,
};

/** A campaign's deliveries (latest delivered first, then pending) and how many it has in all. */
export const surveyDeliveriesQuery = (id: string) => {
  const request = { params: { id } };
  return queryOptions({
    queryKey: endpointKey(api.surveys.deliveries, request),
    queryFn: async (): Promise<{ deliveries: SurveyDeliveryDto[]; total: number }> => {
      const { body, headers } = await callEndpointWithHeaders(api.surveys.deliveries, request, {
        failureMessage: SURVEY_FAILURES.deliveries,
      });
      const total = Number(headers.get(SURVEY_DELIVERIES_TOTAL_HEADER));
      return { deliveries: body, total: Number.isFinite(total) && total > body.length ? total : body.length };
    },
  });
};

/**
 * A survey change under its failure text ('Failed to create campaign' and so
 * on); afterwards the campaign list is read again, and the changed campaign's deliveries.
 */
export const surveyMutation = <D extends EndpointDefinition>(
  queryClient: QueryClient,
  definition: D,
  failureMessage: string,
) =>
  endpointMutation(definition, {
    failureMessage,
    onSuccess: (_answer, request) => {
      const id = (request as { params?: { id?: string } }).params?.id;
      return Promise.all([
        invalidateEndpoint(queryClient, api.surveys.list),
        id === undefined ? undefined : invalidateEndpoint(queryClient, api.surveys.deliveries, { id }),
      ]);
    },
  });
