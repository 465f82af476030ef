import {
  API_DISPLAY_COST_PER_TOKEN,
  type AdminMetrics,
  API_USAGE_DISPLAY_LIMITS,
  type ApiUsage,
  healthScoreBand,
  QUALITY_WINDOW_DAYS,
  usageBadgeVariant,
} from '@sprout/contracts';
import {
  Badge,
  Button,
  cn,
  formatDollars,
  formatNumber,
  formatPhoneNumber,
  formatRelativeTime,
  LoadingText,
  TableCell,
  TableRow,
} from '@sprout/ui';
import { AlertTriangle, Clock, DollarSign, MapPin, MessageSquare, Users } from 'lucide-react';
import { AxisChart, GridLines } from '../../components/AxisChart';
import { DataTable } from '../../components/DataTable';
import { HeadedCard } from '../../components/HeadedCard';
import { PageHeader } from '../../components/PageHeader';
import { QueryBody } from '../../components/QueryBody';
import { SectionCard } from '../../components/SectionCard';
import { countCard, FailureNotice, type StatCardDef, StatCardRow } from '../../components/StatCard';
import { TabPanels } from '../../components/TabPanels';
import { useQuery } from '@tanstack/react-query';
import { adminMetricsQuery, apiUsageQuery, conversationQualityQuery, recentMessagesQuery } from './queries';
import { locationOf } from './location-guess';
import { Bar, DeliveryBadge, Figure, levelBadgeVariant, secondsAxis, secondsText } from './parts';
import { AVERAGE_MEASURES, DASHBOARD_CHANGE_TEXTS, monitoringTexts as t } from './texts';

const TOP_CARDS: readonly StatCardDef<AdminMetrics>[] = [
  countCard(
    'monitoring-active-users',
    'Active Users',
    Users,
    (m) => m.activeUsers,
    DASHBOARD_CHANGE_TEXTS.activeUsers,
  ),
  countCard(
    'monitoring-messages-today',
    'Messages Today',
    MessageSquare,
    (m) => m.messagesToday,
    DASHBOARD_CHANGE_TEXTS.messagesToday,
  ),
  {
    testId: 'monitoring-avg-response',
    title: 'Avg Response Time',
    icon: Clock,
    value: (metrics) => secondsText(metrics.avgResponseTime),
    detail: DASHBOARD_CHANGE_TEXTS.avgResponseTime,
    measures: AVERAGE_MEASURES.replies,
  },
  {
    testId: 'monitoring-api-cost',
    title: 'API Cost Today',
    icon: DollarSign,
    value: (metrics) => formatDollars(metrics.todaysCost, 4),
    detail: DASHBOARD_CHANGE_TEXTS.apiCost,
  },
];

function TopCards() {
  const { data, isError } = useQuery(adminMetricsQuery);
  return (
    <StatCardRow
      label="Today"
      className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4"
      data={isError ? undefined : data}
      placeholder={isError ? '—' : t.loading}
      cards={TOP_CARDS}
    />
  );
}

/** One usage figure against its display limit, with its usage badge. */
function UsageCard({
  title,
  used,
  limit,
  percent,
  testId,
}: {
  title: string;
  used: string;
  limit: string;
  percent: number;
  testId: string;
}) {
  const variant = usageBadgeVariant(percent);
  return (
    <HeadedCard
      data-testid={testId}
      title={title}
      heading="h3"
      titleClassName="text-sm font-medium text-muted-foreground"
      aside={
        <Badge variant={variant} data-testid={`${testId}-badge`} data-variant={variant}>
          {Math.round(percent)}%
        </Badge>
      }
      contentClassName="space-y-2"
    >
      <p className="text-2xl font-bold" data-testid={`${testId}-value`}>
        {used} <span className="text-sm font-normal text-muted-foreground">/ {limit}</span>
      </p>
      <Bar
        percent={percent}
        tone={variant === 'destructive' ? 'danger' : variant === 'secondary' ? 'warning' : 'primary'}
        label={`${title}: ${Math.round(percent)}% of the daily limit`}
      />
    </HeadedCard>
  );
}

/** Today's latest model-call durations as bars, with a seconds axis and the calls in time order. */
function ResponseTimes({ usage }: { usage: ApiUsage }) {
  const times = usage.responseTimes;
  if (times.length === 0) return null;
  const { ticks, top } = secondsAxis(Math.max(...times));
  const slowest = secondsText(Math.max(...times));
  const fastest = secondsText(Math.min(...times));
  return (
    <figure className="rounded-lg border p-4" data-testid="api-response-chart">
      <figcaption className="mb-1 text-sm font-medium">Recent response times</figcaption>
      <p className="mb-3 text-xs text-muted-foreground">
        How long each of today&apos;s {times.length} latest AI provider calls took, in seconds.
      </p>
      <AxisChart
        yLabel="Response time (s)"
        ticks={ticks}
        top={top}
        tickSuffix="s"
        wide
        testId="api-response"
        below={
          <div
            className="ml-10 flex justify-between pt-1 text-xs text-muted-foreground"
            data-testid="api-response-x-axis"
          >
            <span>Oldest</span>
            <span>Model calls today, in order (latest {times.length})</span>
            <span>Newest</span>
          </div>
        }
      >
        <div
          className="relative flex h-40 min-w-0 flex-1 items-end justify-around gap-1 border-b border-l border-foreground/40 px-1"
          role="img"
          aria-label={`Response times of the ${times.length} latest model calls, oldest first: from ${fastest} to ${slowest}`}
          data-testid="api-response-times"
        >
          <GridLines ticks={ticks} top={top} />
          {times.map((ms, index) => (
            <div
              key={index}
              title={`Call ${index + 1} of ${times.length}: ${secondsText(ms)}`}
              className="relative max-w-12 min-w-1 flex-1 rounded-t bg-primary/70"
              style={{ height: `${Math.max((ms / 1000 / top) * 100, 1)}%` }}
              data-testid="api-response-bar"
            />
          ))}
        </div>
      </AxisChart>
    </figure>
  );
}

function ApiMonitoringTab() {
  const { data: usage, isPending, isError } = useQuery(apiUsageQuery);
  if (isError) return <FailureNotice>{t.apiMetricsFailed}</FailureNotice>;
  if (isPending) return <LoadingText>{t.loading}</LoadingText>;
  const callShare = (usage.calls / API_USAGE_DISPLAY_LIMITS.calls) * 100;
  const costShare = (usage.cost / API_USAGE_DISPLAY_LIMITS.cost) * 100;
  return (
    <div className="space-y-4" data-testid="api-monitoring">
      <div className="grid gap-4 md:grid-cols-2">
        <UsageCard
          testId="api-calls"
          title="API Calls Today"
          used={formatNumber(usage.calls)}
          limit={formatNumber(API_USAGE_DISPLAY_LIMITS.calls)}
          percent={callShare}
        />
        <UsageCard
          testId="api-cost"
          title="API Cost Today"
          used={formatDollars(usage.cost, 4)}
          limit={formatDollars(API_USAGE_DISPLAY_LIMITS.cost, 2)}
          percent={costShare}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <Figure testId="api-tokens" label="Tokens" value={formatNumber(usage.tokens)} />
        <Figure testId="api-errors" label="Errors" value={formatNumber(usage.errors)} />
        <Figure
          testId="api-average-response"
          label="Average Response Time"
          value={secondsText(usage.averageResponseTime)}
          measures={AVERAGE_MEASURES.modelCalls}
        />
        <Figure
          testId="api-cost-per-token"
          label="Cost per Token"
          value={`$${API_DISPLAY_COST_PER_TOKEN.toFixed(6)}`}
          measures="Display rate, fixed like the daily limits"
        />
        <Figure testId="api-date" label="Date" value={usage.date} />
      </div>
      <ResponseTimes usage={usage} />
      <SectionCard title="Alerts" headingLevel={3}>
        {usage.alerts.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="api-no-alerts">
            No alerts today.
          </p>
        ) : (
          <ul className="space-y-2" data-testid="api-alerts">
            {usage.alerts.map((alert) => (
              <li
                key={`${alert.type}-${alert.message}`}
                className="flex items-start gap-2 text-sm"
                data-testid="api-alert"
              >
                <AlertTriangle
                  className={cn(
                    'mt-0.5 size-4',
                    alert.level === 'high' ? 'text-destructive' : 'text-amber-600',
                  )}
                  aria-hidden="true"
                />
                <Badge variant={levelBadgeVariant(alert.level)}>{alert.level}</Badge>
                <Badge variant="outline">{alert.type}</Badge>
                <span>{alert.message}</span>
              </li>
            ))}
          </ul>
        )}
      </SectionCard>
    </div>
  );
}

const BAND_COLOURS = {
  Excellent: 'text-emerald-700',
  Good: 'text-amber-600',
  'Needs Attention': 'text-destructive',
} as const;

function ConversationQualityTab() {
  const { data: quality, isPending, isError } = useQuery(conversationQualityQuery);
  if (isError) return <FailureNotice>{t.conversationMetricsFailed}</FailureNotice>;
  if (isPending) return <LoadingText>{t.loading}</LoadingText>;
  const m = quality.weeklyMetrics;
  const band = healthScoreBand(quality.healthScore);
  return (
    <div className="space-y-4" data-testid="conversation-quality">
      <SectionCard
        title="Conversation Health Score"
        description="The last 7 days of real users' conversations."
        headingLevel={3}
        contentClassName="flex items-baseline gap-3"
      >
        <p className={cn('text-4xl font-bold', BAND_COLOURS[band])} data-testid="health-score">
          {quality.healthScore}
        </p>
        <p className={cn('text-lg font-semibold', BAND_COLOURS[band])} data-testid="health-band">
          {band}
        </p>
      </SectionCard>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="weekly-metrics">
        <Figure testId="q-total-users" label="Total Users" value={formatNumber(m.total_users)} />
        <Figure testId="q-returning-users" label="Returning Users" value={formatNumber(m.returning_users)} />
        <Figure testId="q-active-users" label="Active Users" value={formatNumber(m.active_users)} />
        <Figure testId="q-total-messages" label="Total Messages" value={formatNumber(m.total_messages)} />
        <Figure
          testId="q-messages-per-user"
          label="Avg Messages per User"
          value={m.avg_messages_per_user.toFixed(1)}
        />
        <Figure
          testId="q-response-time"
          label="Avg Response Time"
          value={secondsText(m.avg_response_time)}
          measures={AVERAGE_MEASURES.weeklyReplies}
        />
        <Figure
          testId="q-response-length"
          label="Avg Response Length"
          value={`${formatNumber(m.avg_response_length)} chars`}
        />
        <Figure
          testId="q-active-days"
          label="Active Days"
          value={`${m.active_days}/${QUALITY_WINDOW_DAYS}`}
        />
        <Figure
          testId="q-substantive"
          label="Substantive Responses"
          value={`${formatNumber(m.substantive_responses)} of ${formatNumber(m.total_responses)}`}
        />
        <Figure
          testId="q-detailed"
          label="Detailed Responses"
          value={`${formatNumber(m.detailed_responses)} of ${formatNumber(m.total_responses)}`}
        />
        <Figure
          testId="q-slow"
          label="Slow Responses"
          value={`${formatNumber(m.slow_responses)} of ${formatNumber(m.total_responses)}`}
        />
        <Figure testId="q-total-responses" label="Total Responses" value={formatNumber(m.total_responses)} />
      </div>
    </div>
  );
}

function RecentActivityTab() {
  const recent = useQuery(recentMessagesQuery);
  return (
    <SectionCard
      title="Recent Activity"
      description="The newest messages, both directions."
      headingLevel={3}
      headerClassName="flex-row items-center justify-between gap-2"
      action={
        // A placeholder: it leads nowhere yet.
        <Button variant="outline" size="sm" type="button">
          {t.viewAll}
        </Button>
      }
    >
      <QueryBody
        query={recent}
        loading={t.loading}
        failure={t.recentMessagesFailed}
        empty={
          <p className="py-6 text-center text-sm text-muted-foreground" data-testid="no-messages">
            {t.noMessages}
          </p>
        }
      >
        {(messages) => (
          <DataTable
            data-testid="recent-messages"
            headings={['Phone', 'Location', 'Message', 'Time', 'Status']}
          >
            {messages.map((message) => (
              <TableRow key={message.id} data-testid="recent-message">
                <TableCell className="whitespace-nowrap font-medium">
                  {formatPhoneNumber(message.user.phoneNumber)}
                </TableCell>
                <TableCell className="whitespace-nowrap" data-testid="message-location">
                  <MapPin className="mr-1 inline size-3 text-muted-foreground" aria-hidden="true" />
                  {locationOf(message.user)}
                </TableCell>
                <TableCell>
                  {/* A cell ignores max-width: the text's own box is cut to keep the table on screen. */}
                  <span className="block max-w-72 truncate" title={message.content}>
                    {message.content}
                  </span>
                </TableCell>
                <TableCell className="whitespace-nowrap" data-testid="message-time">
                  {formatRelativeTime(message.createdAt)}
                </TableCell>
                <TableCell>
                  <DeliveryBadge status={message.status} />
                </TableCell>
              </TableRow>
            ))}
          </DataTable>
        )}
      </QueryBody>
    </SectionCard>
  );
}

export default function MonitoringDashboardPage() {
  return (
    <>
      <PageHeader
        title="Monitoring Dashboard"
        description="API usage, conversation quality and recent activity"
      />
      <div className="flex flex-col gap-6">
        <TopCards />
        <TabPanels
          tabs={[
            { value: 'api', label: 'API Monitoring', content: <ApiMonitoringTab /> },
            { value: 'quality', label: 'Conversation Quality', content: <ConversationQualityTab /> },
            { value: 'activity', label: 'Recent Activity', content: <RecentActivityTab /> },
          ]}
        />
      </div>
    </>
  );
}
