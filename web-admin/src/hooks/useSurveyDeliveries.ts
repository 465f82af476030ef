import { useQuery } from '@tanstack/react-query';
import { getSurveyDeliveries } from '../api/surveys';
import { QueryKeys } from '../query-keys';

/** The deliveries of the campaign whose details are open (null: none is). */
export function useSurveyDeliveries(campaignId: string | null) {
  return useQuery({
    queryKey: QueryKeys.surveyDeliveries(campaignId ?? ''),
    queryFn: () => getSurveyDeliveries(campaignId ?? ''),
    enabled: campaignId !== null,
  });
}
