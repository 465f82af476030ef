import {
  type Prediction,
  PREDICTION_TITLES,
  type ProactiveSystemHealth,
  responseTimeBarPercent,
  type TrendPoint,
} from '@sprout/contracts';
import { Badge, Button, cn, formatRelativeTime, formatTime, LoadingText, serverMessage } from '@sprout/ui';
import { CircleCheck, RefreshCw, TrendingUp } from 'lucide-react';
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { FailureNotice } from '../../components/StatCard';
import { api } from '@sprout/contracts';
import { endpointMutation } from '@sprout/ui';
import { useMutation, useQuery } from '@tanstack/react-query';
import { predictionsQuery, proactiveSystemHealthQuery, trendsQuery } from './queries';
import { Bar, Figure, levelBadgeVariant, megabytesText, secondsText } from './parts';
import { monitoringTexts as t } from './texts';

const STATUS_VARIANT = { normal: 'default', warning: 'secondary', critical: 'destructive' } as const;

/** A query's failure as the page shows it: the server's own message (the monitor not reporting). */
const failureText = (error: Error): string => serverMessage(error, error.message);

function SystemStatus({ system }: { system: ProactiveSystemHealth }) {
  const { metrics } = system;
  return (
    <div className="space-y-3">
      <div className="flex items-center gap-2">
        <Badge variant={STATUS_VARIANT[system.status]} className="capitalize" data-testid="system-status">
          {system.status}
        </Badge>
        <span className="text-sm text-muted-foreground">updated {formatRelativeTime(system.timestamp)}</span>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Figure testId="active-predictions" label="Active Predictions" value={system.activePredictions} />
        <Figure
          testId="average-response"
          label="Avg Response Time (last hour)"
          value={secondsText(metrics.averageResponseTime)}
        />
        <Figure testId="error-rate" label="Error Rate (last hour)" value={`${metrics.errorRate}%`} />
        <Figure testId="queue-depth" label="Queue Depth" value={metrics.queueDepth} />
      </div>
    </div>
  );
}

function Resources({ system }: { system: ProactiveSystemHealth }) {
  const r = system.metrics.resourceUtilization;
  return (
    <div className="grid gap-3 sm:grid-cols-2" data-testid="resources">
      <Figure testId="heap-used" label="Heap Used" value={megabytesText(r.heapUsed)} />
      <Figure testId="heap-total" label="Heap Total" value={megabytesText(r.heapTotal)} />
      <Figure testId="rss" label="RSS" value={megabytesText(r.rss)} />
      <Figure testId="external" label="External" value={megabytesText(r.external)} />
    </div>
  );
}

function PredictionCard({ prediction }: { prediction: Prediction }) {
  return (
    <li className="rounded-lg border p-3" data-testid="prediction" data-type={prediction.type}>
      <div className="flex flex-wrap items-center gap-2">
        <TrendingUp className="size-4 text-destructive" aria-hidden="true" />
        <p className="font-semibold">{PREDICTION_TITLES[prediction.type] ?? prediction.type}</p>
        <Badge variant={levelBadgeVariant(prediction.severity)} data-testid="prediction-severity">
          {prediction.severity} severity
        </Badge>
        <Badge variant="outline">{prediction.confidence} confidence</Badge>
      </div>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-muted-foreground">Timeframe</dt>
          <dd>{prediction.timeframe}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Current rate</dt>
          <dd data-testid="prediction-rate">{prediction.currentRate}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Change</dt>
          <dd>
            {prediction.percentageChange > 0 ? '+' : ''}
            {prediction.percentageChange}%
          </dd>
        </div>
      </dl>
      {prediction.recommendedActions.length > 0 && (
        <ul className="mt-2 list-disc space-y-0.5 pl-5 text-sm text-muted-foreground">
          {prediction.recommendedActions.map((action) => (
            <li key={action}>{action}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

function Predictions() {
  const { data, isPending, isError, error } = useQuery(predictionsQuery);
  if (isPending) return <LoadingText>{t.loading}</LoadingText>;
  if (isError) return <FailureNotice>{failureText(error)}</FailureNotice>;
  if (data.predictions.length === 0) {
    return (
      <div className="flex items-center gap-3 py-4" data-testid="all-systems-normal">
        <CircleCheck className="size-8 text-emerald-600" aria-hidden="true" />
        <div>
          <p className="font-semibold">{t.allSystemsNormal}</p>
          <p className="text-sm text-muted-foreground">No problems are predicted for the coming hours.</p>
        </div>
      </div>
    );
  }
  return (
    <ul className="space-y-3" data-testid="predictions">
      {data.predictions.map((prediction, index) => (
        <PredictionCard key={`${prediction.type}-${index}`} prediction={prediction} />
      ))}
    </ul>
  );
}

/** One bar per point of the last hour; `percentOf` sets its length. */
function TrendBars({
  points,
  percentOf,
  text,
  testId,
  label,
}: {
  points: TrendPoint[];
  percentOf: (value: number) => number;
  text: (value: number) => string;
  testId: string;
  label: string;
}) {
  return (
    <ol className="space-y-1.5" data-testid={testId}>
      {points.map((point) => (
        <li key={point.timestamp} className="grid grid-cols-[4.5rem_1fr_4rem] items-center gap-2 text-xs">
          <span className="text-muted-foreground">{formatTime(point.timestamp)}</span>
          <Bar
            percent={percentOf(point.value)}
            tone={
              percentOf(point.value) >= 80 ? 'danger' : percentOf(point.value) >= 50 ? 'warning' : 'primary'
            }
            label={`${label} at ${formatTime(point.timestamp)}: ${text(point.value)}`}
            testId={`${testId}-bar`}
          />
          <span className="text-right tabular-nums">{text(point.value)}</span>
        </li>
      ))}
    </ol>
  );
}

function TrendSections() {
  const { data, isPending, isError, error } = useQuery(trendsQuery);
  const body = (render: (trends: NonNullable<typeof data>['trends']) => ReactNode) =>
    isPending ? (
      <LoadingText>{t.loading}</LoadingText>
    ) : isError ? (
      <FailureNotice>{failureText(error)}</FailureNotice>
    ) : (
      render(data.trends)
    );
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <SectionCard
        title="Response Time Trend"
        description="Average reply time per 5 minutes, last hour"
        testId="response-trend"
      >
        {body((trends) => (
          <TrendBars
            testId="response-time-trend"
            label="Response time"
            points={trends.responseTimeHistory}
            percentOf={responseTimeBarPercent}
            text={(value) => `${value.toFixed(1)}s`}
          />
        ))}
      </SectionCard>
      <SectionCard
        title="Error Rate Trend"
        description="Failed messages and model calls per 5 minutes, last hour"
        testId="error-trend"
      >
        {body((trends) => (
          <TrendBars
            testId="error-rate-trend"
            label="Error rate"
            points={trends.errorRateHistory}
            percentOf={(value) => Math.min(value, 100)}
            text={(value) => `${value.toFixed(1)}%`}
          />
        ))}
      </SectionCard>
    </div>
  );
}

export default function ProactiveMonitoringPage() {
  const system = useQuery(proactiveSystemHealthQuery);
  const force = useMutation(endpointMutation(api.monitoring.proactiveForceCheck));
  const runCheck = () =>
    force.mutate(
      {},
      {
        // The page reloads afterwards; a failure is only logged.
        onSuccess: () => window.location.reload(),
        onError: (error) => console.error('Proactive force check failed:', error),
      },
    );
  const systemBody = (render: (value: ProactiveSystemHealth) => ReactNode) =>
    system.isPending ? (
      <LoadingText>{t.loading}</LoadingText>
    ) : system.isError ? (
      <FailureNotice>{failureText(system.error)}</FailureNotice>
    ) : (
      render(system.data)
    );
  return (
    <>
      <PageHeader title="Proactive Monitoring" description="Problems predicted from the last hour's trends">
        <Button onClick={runCheck} disabled={force.isPending}>
          <RefreshCw className={cn('size-4', force.isPending && 'animate-spin')} aria-hidden="true" />
          {t.forceCheck}
        </Button>
      </PageHeader>
      <div className="flex flex-col gap-6">
        <SectionCard title="Active Predictions" testId="active-predictions-section">
          <Predictions />
        </SectionCard>
        <TrendSections />
        <div className="grid gap-6 lg:grid-cols-2">
          <SectionCard title="System Status" testId="system-status-section">
            {systemBody((value) => (
              <SystemStatus system={value} />
            ))}
          </SectionCard>
          <SectionCard
            title="Resource Utilization"
            description="Memory of the monitor service, in MB"
            testId="resources-section"
          >
            {systemBody((value) => (
              <Resources system={value} />
            ))}
          </SectionCard>
        </div>
      </div>
    </>
  );
}
