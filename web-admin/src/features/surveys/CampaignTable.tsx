import type { CampaignStatusValue, SurveyCampaignDto } from '@sprout/contracts';
import { Badge, Button, cn, formatDate, formatNumber, TableCell, TableRow } from '@sprout/ui';
import { ExternalLink, Eye, Pause, Play } from 'lucide-react';
import { DataTable, right } from '../../components/DataTable';
import type { CampaignAction } from './queries';
import { STATUS_LABELS, surveyTexts } from './texts';

const STATUS_CLASSES: Record<CampaignStatusValue, string> = {
  live: 'border-transparent bg-emerald-100 text-emerald-900',
  scheduled: 'border-transparent bg-sky-100 text-sky-900',
  paused: 'border-transparent bg-amber-100 text-amber-900',
  completed: 'border-border text-muted-foreground',
};

export function CampaignStatusBadge({ status }: { status: CampaignStatusValue }) {
  return (
    <Badge variant="outline" className={STATUS_CLASSES[status]} data-testid="campaign-status">
      {STATUS_LABELS[status]}
    </Badge>
  );
}

/** Pause for a live campaign, Resume for a paused one; scheduled and completed have none. */
const actionOf = (status: CampaignStatusValue): CampaignAction | null =>
  status === 'live' ? 'pause' : status === 'paused' ? 'start' : null;

/** The campaign table. */
export function CampaignTable({
  campaigns,
  busyId,
  onAction,
  onDetails,
}: {
  campaigns: readonly SurveyCampaignDto[];
  /** The campaign whose Pause or Resume is on its way. */
  busyId: string | null;
  onAction: (campaign: SurveyCampaignDto, action: CampaignAction) => void;
  onDetails: (campaign: SurveyCampaignDto) => void;
}) {
  return (
    <DataTable
      data-testid="campaigns-table"
      headRowClassName="hover:bg-transparent"
      headings={['Campaign', 'Status', 'Survey', 'Dates', right('Deliveries'), right('Actions')]}
    >
      {campaigns.map((campaign) => {
        const action = actionOf(campaign.status);
        return (
          <TableRow key={campaign.id} data-testid="campaign-row" data-campaign-id={campaign.id}>
            <TableCell>
              <p className="font-medium" data-testid="campaign-name">
                {campaign.name}
              </p>
              <p className="text-xs text-muted-foreground" data-testid="campaign-created">
                Created {formatDate(campaign.createdAt)}
              </p>
            </TableCell>
            <TableCell>
              <CampaignStatusBadge status={campaign.status} />
            </TableCell>
            <TableCell>
              <a
                href={campaign.surveyUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline"
                data-testid="campaign-survey-link"
              >
                {surveyTexts.viewSurvey}
                <ExternalLink className="size-3.5" aria-hidden="true" />
              </a>
            </TableCell>
            <TableCell className="whitespace-nowrap" data-testid="campaign-dates">
              {formatDate(campaign.startDate)} - {formatDate(campaign.endDate, surveyTexts.noEndDate)}
            </TableCell>
            <TableCell
              className="text-right whitespace-nowrap tabular-nums"
              data-testid="campaign-deliveries"
            >
              {formatNumber(campaign.deliveredCount)} of {formatNumber(campaign.totalTargetUsers)}
            </TableCell>
            <TableCell>
              <div className="flex justify-end gap-2">
                {action !== null && (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={busyId === campaign.id}
                    onClick={() => onAction(campaign, action)}
                    className={cn(action === 'pause' ? 'text-amber-900' : 'text-emerald-900')}
                  >
                    {action === 'pause' ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
                    {action === 'pause' ? surveyTexts.pause : surveyTexts.resume}
                  </Button>
                )}
                <Button variant="ghost" size="sm" onClick={() => onDetails(campaign)}>
                  <Eye aria-hidden="true" />
                  {surveyTexts.viewDetails}
                </Button>
              </div>
            </TableCell>
          </TableRow>
        );
      })}
    </DataTable>
  );
}
