import { FALLBACK_CHAIN, type FallbackReport } from '@sprout/contracts';
import { Badge, cn, formatDateTime, formatNumber, formatRelativeTime, TableCell, TableRow } from '@sprout/ui';
import { ArrowDown, LifeBuoy } from 'lucide-react';
import { DataTable } from '../../components/DataTable';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryBody } from '../../components/QueryBody';
import { SectionCard } from '../../components/SectionCard';
import { useQuery } from '@tanstack/react-query';
import { fallbackReportQuery } from './queries';
import { monitoringTexts as t } from './texts';

const labelOf = (tier: string | null): string =>
  FALLBACK_CHAIN.find((info) => info.tier === tier)?.label ?? 'No reply yet';

function CurrentTier({ report }: { report: FallbackReport }) {
  const onPrimary = report.current.tier === 'primary';
  return (
    <SectionCard
      title="Replies Now"
      description="The tier that answered the newest reply."
      testId="fallback-current"
      contentClassName="flex flex-wrap items-baseline gap-x-6 gap-y-2"
    >
      <p
        className={cn('text-2xl font-bold', report.current.tier !== null && !onPrimary && 'text-destructive')}
        data-testid="fallback-current-tier"
      >
        {labelOf(report.current.tier)}
      </p>
      {report.current.at !== null && (
        <p className="text-sm text-muted-foreground">{formatRelativeTime(report.current.at)}</p>
      )}
      <p className="text-sm" data-testid="fallback-rate">
        {report.fallbackRate24Hours}% of the last 24 hours&apos; replies came from below the live model
      </p>
    </SectionCard>
  );
}

function Chain({ report }: { report: FallbackReport }) {
  return (
    <SectionCard
      title="Fallback Chain"
      description="Each tier answers when the one above cannot. Replies answered per tier."
    >
      <ol className="space-y-2" data-testid="fallback-tiers">
        {report.chain.map((tier, index) => (
          <li key={tier.tier}>
            {index > 0 && (
              <ArrowDown className="mx-auto mb-2 size-4 text-muted-foreground" aria-hidden="true" />
            )}
            <div
              className={cn(
                'flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3',
                tier.tier === report.current.tier && 'border-primary bg-primary/5',
              )}
              data-testid="fallback-tier"
              data-tier={tier.tier}
            >
              <div>
                <p className="font-semibold">
                  {index + 1}. {tier.label}
                  {tier.tier === report.current.tier && (
                    <Badge className="ml-2" variant="secondary">
                      current
                    </Badge>
                  )}
                </p>
                <p className="text-sm text-muted-foreground">{tier.description}</p>
              </div>
              <div className="flex gap-6 text-right text-sm">
                <div>
                  <p className="text-muted-foreground">24 hours</p>
                  <p className="text-lg font-semibold" data-testid="tier-24h">
                    {formatNumber(tier.last24Hours)}
                  </p>
                </div>
                <div>
                  <p className="text-muted-foreground">7 days</p>
                  <p className="text-lg font-semibold" data-testid="tier-7d">
                    {formatNumber(tier.last7Days)}
                  </p>
                </div>
              </div>
            </div>
          </li>
        ))}
      </ol>
    </SectionCard>
  );
}

function RecentFallbacks({ report }: { report: FallbackReport }) {
  return (
    <SectionCard
      title="Recent Fallbacks"
      description="The newest replies answered below the live model, last 7 days."
    >
      {report.recentFallbacks.length === 0 ? (
        <EmptyState
          icon={LifeBuoy}
          title="No fallbacks"
          hint="Every reply of the last 7 days came from the live model."
          testId="no-fallbacks"
        />
      ) : (
        <DataTable
          data-testid="recent-fallbacks"
          headings={['Time', 'Answered by', 'Reason', 'Failed model']}
        >
          {report.recentFallbacks.map((event) => (
            <TableRow
              key={`${event.at}-${event.tier}-${event.conversationId ?? ''}`}
              data-testid="fallback-event"
            >
              <TableCell className="whitespace-nowrap" title={formatDateTime(event.at)}>
                {formatRelativeTime(event.at)}
              </TableCell>
              <TableCell>
                <Badge variant={event.tier === 'fallback' ? 'secondary' : 'destructive'}>
                  {labelOf(event.tier)}
                </Badge>
              </TableCell>
              <TableCell className="max-w-lg break-words" data-testid="fallback-reason">
                {event.reason}
              </TableCell>
              <TableCell className="font-mono text-xs">{event.failedModel ?? '—'}</TableCell>
            </TableRow>
          ))}
        </DataTable>
      )}
    </SectionCard>
  );
}

function Thresholds({ report }: { report: FallbackReport }) {
  return (
    <SectionCard
      title="Failure Thresholds"
      description="Consecutive failed checks before a service counts as unavailable."
    >
      <ul className="grid gap-2 sm:grid-cols-2" data-testid="fallback-thresholds">
        {report.thresholds.map((threshold) => (
          <li key={threshold.service} className="flex justify-between rounded-md border p-2 text-sm">
            <span>{threshold.label}</span>
            <span className="font-semibold">{threshold.failures} failures</span>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}

export default function FallbackMonitoringPage() {
  const report = useQuery(fallbackReportQuery);
  return (
    <>
      <PageHeader title="Fallback System" description="How replies fall back when a model or service fails" />
      <QueryBody query={report} loading={t.loading} failure={t.fallbackFailed}>
        {(data) => (
          <div className="flex flex-col gap-6">
            <CurrentTier report={data} />
            <div className="grid gap-6 xl:grid-cols-2">
              <Chain report={data} />
              <div className="flex flex-col gap-6">
                <Thresholds report={data} />
              </div>
            </div>
            <RecentFallbacks report={data} />
          </div>
        )}
      </QueryBody>
    </>
  );
}
