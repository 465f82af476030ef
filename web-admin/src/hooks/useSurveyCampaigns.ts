import { useQuery } from '@tanstack/react-query';
import { getSurveyCampaigns } from '../api/surveys';
import { QueryKeys } from '../query-keys';

/** Spec 001 §9: the campaign list refreshes every 30 s. */
export const SURVEY_CAMPAIGNS_REFRESH_MS = 30_000;

export function useSurveyCampaigns() {
  return useQuery({
    queryKey: QueryKeys.surveyCampaigns,
    queryFn: getSurveyCampaigns,
    refetchInterval: SURVEY_CAMPAIGNS_REFRESH_MS,
  });
}
