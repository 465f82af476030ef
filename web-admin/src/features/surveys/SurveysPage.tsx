import { api, SURVEY_FAILURES, type SurveyCampaignDto } from '@sprout/contracts';
import { Button, serverMessage, toast } from '@sprout/ui';
import { ClipboardList, Plus } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryBody } from '../../components/QueryBody';
import { SectionCard } from '../../components/SectionCard';
import { FailureNotice } from '../../components/StatCard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { surveyCampaignsQuery, surveyMutation } from './queries';
import { CampaignDetailsDialog } from './CampaignDetailsDialog';
import { CampaignTable } from './CampaignTable';
import { CreateCampaignDialog } from './CreateCampaignDialog';
import { SurveyStatCards } from './SurveyStatCards';
import { surveyTexts } from './texts';

/**
 * The error toast of a failed campaign call: the thrown text ('Failed to create
 * campaign', 'Failed to {action} campaign', 'Failed to update survey URL') and the server's reason.
 */
function failureToast(error: unknown) {
  const title = error instanceof Error ? error.message : SURVEY_FAILURES.create;
  const reason = serverMessage(error, '');
  toast({ variant: 'destructive', title, ...(reason ? { description: reason } : {}) });
}

/** /admin/surveys: stat cards, the campaign table (polled every 30 s), create and details dialogs. */
export default function SurveysPage() {
  const queryClient = useQueryClient();
  const campaigns = useQuery(surveyCampaignsQuery);
  const pause = useMutation(surveyMutation(queryClient, api.surveys.pause, SURVEY_FAILURES.action('pause')));
  const start = useMutation(surveyMutation(queryClient, api.surveys.start, SURVEY_FAILURES.action('start')));
  const [creating, setCreating] = useState(false);
  const [detailsId, setDetailsId] = useState<string | null>(null);
  // The open details follow the polled list, so a status or URL change shows there too.
  const details = campaigns.data?.find((c) => c.id === detailsId) ?? null;

  const onAction = (campaign: SurveyCampaignDto, what: 'pause' | 'start') =>
    (what === 'pause' ? pause : start).mutate({ params: { id: campaign.id } }, { onError: failureToast });

  const createButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden="true" />
      {surveyTexts.createCampaign}
    </Button>
  );

  return (
    <>
      <PageHeader title={surveyTexts.title} description={surveyTexts.description}>
        {campaigns.data !== undefined && campaigns.data.length > 0 && createButton}
      </PageHeader>
      <div className="flex flex-col gap-6">
        {campaigns.isError ? (
          <FailureNotice>{SURVEY_FAILURES.list}</FailureNotice>
        ) : (
          <SurveyStatCards campaigns={campaigns.data} />
        )}
        <SectionCard
          title="Campaigns"
          description="Existing users get the link in their next conversation, new users in their second."
        >
          <QueryBody
            query={campaigns}
            loading={surveyTexts.loading}
            failure={SURVEY_FAILURES.list}
            empty={
              <div className="flex flex-col items-center pb-8" data-testid="surveys-empty">
                <EmptyState
                  icon={ClipboardList}
                  title={surveyTexts.emptyTitle}
                  hint={surveyTexts.emptyHint}
                  testId="surveys-empty-state"
                  className="pb-4"
                />
                {createButton}
              </div>
            }
          >
            {(list) => (
              <CampaignTable
                campaigns={list}
                busyId={[pause, start].find((m) => m.isPending)?.variables?.params.id ?? null}
                onAction={onAction}
                onDetails={(campaign) => setDetailsId(campaign.id)}
              />
            )}
          </QueryBody>
        </SectionCard>
      </div>
      <CreateCampaignDialog open={creating} onOpenChange={setCreating} onFailed={failureToast} />
      <CampaignDetailsDialog campaign={details} onClose={() => setDetailsId(null)} onFailed={failureToast} />
    </>
  );
}
