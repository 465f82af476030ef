import { api, SURVEY_FAILURES, type SurveyCampaignDto } from '@sprout/contracts';
import {
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  formatDate,
  formatDateTime,
  formatNumber,
  formatPhoneNumber,
  Input,
  Label,
} from '@sprout/ui';
import { type FormEvent, useState } from 'react';
import { QueryBody } from '../../components/QueryBody';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { surveyDeliveriesQuery, surveyMutation } from './queries';
import { CampaignStatusBadge } from './CampaignTable';
import { surveyTexts } from './texts';

/**
 * A campaign's details: its survey URL, editable, and its deliveries (phone,
 * delivered time, conversation id or 'Pending') in a list that scrolls within 20rem.
 */
export function CampaignDetailsDialog({
  campaign,
  onClose,
  onFailed,
}: {
  campaign: SurveyCampaignDto | null;
  onClose: () => void;
  onFailed: (error: unknown) => void;
}) {
  return (
    <Dialog open={campaign !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl" data-testid="campaign-details">
        {campaign !== null && <Details key={campaign.id} campaign={campaign} onFailed={onFailed} />}
      </DialogContent>
    </Dialog>
  );
}

function Details({
  campaign,
  onFailed,
}: {
  campaign: SurveyCampaignDto;
  onFailed: (error: unknown) => void;
}) {
  const update = useMutation(surveyMutation(useQueryClient(), api.surveys.update, SURVEY_FAILURES.updateUrl));
  const [url, setUrl] = useState(campaign.surveyUrl);
  const changed = url.trim() !== '' && url.trim() !== campaign.surveyUrl;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!changed || update.isPending) return;
    update.mutate(
      { params: { id: campaign.id }, body: { surveyUrl: url.trim() } },
      { onSuccess: (saved) => setUrl(saved.campaign.surveyUrl), onError: onFailed },
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle className="flex flex-wrap items-center gap-2">
          {campaign.name} <CampaignStatusBadge status={campaign.status} />
        </DialogTitle>
        <DialogDescription>
          {formatDate(campaign.startDate)} - {formatDate(campaign.endDate, surveyTexts.noEndDate)} ·{' '}
          {formatNumber(campaign.deliveredCount)} of {formatNumber(campaign.totalTargetUsers)} delivered
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={onSubmit} noValidate className="grid gap-1.5" data-testid="survey-url-form">
        <Label htmlFor="details-survey-url">Survey URL</Label>
        <div className="flex gap-2">
          <Input
            id="details-survey-url"
            type="url"
            inputMode="url"
            maxLength={200}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
          <Button type="submit" disabled={!changed || update.isPending}>
            {update.isPending ? 'Saving...' : surveyTexts.saveUrl}
          </Button>
        </div>
      </form>
      <Deliveries campaignId={campaign.id} />
    </>
  );
}

function Deliveries({ campaignId }: { campaignId: string }) {
  const deliveries = useQuery(surveyDeliveriesQuery(campaignId));
  return (
    <section aria-labelledby="deliveries-heading" className="grid gap-2">
      <h3 id="deliveries-heading" className="text-sm font-semibold">
        Deliveries
      </h3>
      <QueryBody
        query={deliveries}
        loading={surveyTexts.loadingDeliveries}
        failure={SURVEY_FAILURES.deliveries}
        isEmpty={(data) => data.deliveries.length === 0}
        empty={
          <p className="py-6 text-center text-sm text-muted-foreground" data-testid="deliveries-empty">
            {surveyTexts.noDeliveries}
          </p>
        }
      >
        {(data) => (
          <>
            {/* Focusable so the list scrolls from the keyboard too. */}
            <ul
              className="max-h-80 divide-y divide-border overflow-y-auto rounded-lg border border-border focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              aria-label="Deliveries"
              tabIndex={0}
              data-testid="deliveries-list"
            >
              {data.deliveries.map((delivery) => (
                <li
                  key={delivery.id}
                  className="grid grid-cols-[1fr_auto] gap-x-4 px-3 py-2 text-sm"
                  data-testid="delivery-row"
                >
                  <span className="font-medium" data-testid="delivery-phone">
                    {formatPhoneNumber(delivery.phoneNumber)}
                  </span>
                  <span className="text-right text-muted-foreground" data-testid="delivery-time">
                    {formatDateTime(delivery.deliveredAt)}
                  </span>
                  <span
                    className="col-span-2 truncate font-mono text-xs text-muted-foreground"
                    data-testid="delivery-conversation"
                  >
                    {delivery.conversationId ?? surveyTexts.pending}
                  </span>
                </li>
              ))}
            </ul>
            {data.total > data.deliveries.length && (
              <p className="text-xs text-muted-foreground" data-testid="deliveries-shown">
                Showing {formatNumber(data.deliveries.length)} of {formatNumber(data.total)} deliveries: the
                latest delivered first, then pending ones.
              </p>
            )}
          </>
        )}
      </QueryBody>
    </section>
  );
}
