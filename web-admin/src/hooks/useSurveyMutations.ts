import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type CampaignAction,
  type CreateCampaignBody,
  changeSurveyCampaign,
  createSurveyCampaign,
  updateSurveyUrl,
} from '../api/surveys';
import { QueryKeys } from '../query-keys';

/** Every survey change refreshes the campaign list (and the changed campaign's deliveries). */
function useRefreshCampaigns() {
  const queryClient = useQueryClient();
  return async (campaignId?: string) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: QueryKeys.surveyCampaigns }),
      campaignId === undefined
        ? undefined
        : queryClient.invalidateQueries({ queryKey: QueryKeys.surveyDeliveries(campaignId) }),
    ]);
  };
}

export function useCreateSurveyCampaign() {
  const refresh = useRefreshCampaigns();
  return useMutation({
    mutationFn: (body: CreateCampaignBody) => createSurveyCampaign(body),
    onSuccess: () => refresh(),
  });
}

/** Pause or Resume. */
export function useSurveyCampaignAction() {
  const refresh = useRefreshCampaigns();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: CampaignAction }) => changeSurveyCampaign(id, action),
    onSuccess: (_campaign, { id }) => refresh(id),
  });
}

export function useUpdateSurveyUrl() {
  const refresh = useRefreshCampaigns();
  return useMutation({
    mutationFn: ({ id, surveyUrl }: { id: string; surveyUrl: string }) => updateSurveyUrl(id, surveyUrl),
    onSuccess: (_campaign, { id }) => refresh(id),
  });
}
