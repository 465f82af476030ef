import {
  Badge,
  Button,
  formatDate,
  formatDollars,
  formatNumber,
  serverMessage,
  TableCell,
  TableRow,
  toast,
  endpointQuery,
} from '@sprout/ui';
import { Check, DollarSign, MessageSquare, UserCheck, Users } from 'lucide-react';
import { Link } from 'react-router';
import { api, type BetaSignupDto, type DashboardMetricsResponse } from '@sprout/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { QueryBody } from '../../components/QueryBody';
import { SectionCard } from '../../components/SectionCard';
import { countCard, QueryStatCardRow, type StatCardDef } from '../../components/StatCard';
import { useTestDataMode } from '../../test-data-mode';
import { approveSignupMutation, dashboardMetricsQuery } from './queries';
import { recentSignups, signupBadgeVariant } from './recent-signups';
import { dashboardTexts } from './texts';

const METRIC_CARDS: readonly StatCardDef<DashboardMetricsResponse>[] = [
  countCard(
    'metric-beta-signups',
    'Beta Signups',
    UserCheck,
    (m) => m.betaSignups.total,
    (m) => `${formatNumber(m.betaSignups.pending)} pending`,
  ),
  countCard(
    'metric-active-users',
    'Active Users',
    Users,
    (m) => m.activeUsers,
    'Users with recent conversations',
  ),
  countCard(
    'metric-messages-today',
    'Messages Today',
    MessageSquare,
    (m) => m.messagesToday,
    (m) => `Avg response: ${formatNumber(m.avgResponseTime)}ms`,
  ),
  {
    testId: 'metric-todays-cost',
    title: "Today's Cost",
    icon: DollarSign,
    value: (metrics) => formatDollars(metrics.todaysCost, 2),
    pendingDetail: 'API usage',
    detail: (metrics) => (
      <>
        API usage
        <span data-testid="metric-todays-sms-cost"> · SMS {formatDollars(metrics.todaysSmsCost, 2)}</span>
      </>
    ),
  },
];

function MetricCards() {
  return (
    <QueryStatCardRow
      query={dashboardMetricsQuery(useTestDataMode().showTestData)}
      failed={dashboardTexts.metricsFailed}
      label="Metrics"
      className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4"
      placeholder={dashboardTexts.loadingMetrics}
      cards={METRIC_CARDS}
    />
  );
}

/** Every entry has its Approve button; an approved one shows it disabled, as "Approved". */
function ApproveButton({ signup }: { signup: BetaSignupDto }) {
  const approve = useMutation(approveSignupMutation(useQueryClient()));
  if (signup.status === 'approved') {
    return (
      <Button size="sm" variant="outline" disabled aria-label={`Approved ${signup.email}`}>
        <Check aria-hidden="true" />
        Approved
      </Button>
    );
  }
  return (
    <Button
      size="sm"
      disabled={approve.isPending}
      aria-label={`Approve ${signup.email}`}
      onClick={() =>
        approve.mutate(
          { params: { id: signup.id } },
          {
            onSuccess: () =>
              toast({ title: 'Signup Approved', description: `${signup.email} is approved for the beta.` }),
            onError: (error) =>
              toast({
                variant: 'destructive',
                title: 'Error',
                description: serverMessage(error, 'Failed to approve signup.'),
              }),
          },
        )
      }
    >
      {approve.isPending ? 'Approving...' : 'Approve'}
    </Button>
  );
}

function RecentBetaSignups() {
  const signups = useQuery(endpointQuery(api.waitlist.list, {}));
  return (
    <SectionCard title="Recent Beta Signups" description="The latest people to join the waitlist.">
      <QueryBody
        query={signups}
        loading={dashboardTexts.loadingSignups}
        failure={
          <p role="alert" className="py-6 text-center text-sm text-destructive">
            Failed to fetch beta signups
          </p>
        }
        empty={<p className="py-6 text-center text-sm text-muted-foreground">{dashboardTexts.noSignups}</p>}
      >
        {(list) => (
          <DataTable
            data-testid="beta-signups"
            headings={[
              'Email',
              'Zip Code',
              'Code',
              'Signup Date',
              'Status',
              { label: <span className="sr-only">Actions</span> },
            ]}
          >
            {recentSignups(list).map((signup) => (
              <TableRow key={signup.id} data-testid="beta-signup-row">
                <TableCell className="font-medium">{signup.email}</TableCell>
                <TableCell>{signup.zipCode}</TableCell>
                <TableCell>
                  <code className="rounded bg-muted px-1.5 py-0.5 text-xs">{signup.uniqueCode}</code>
                </TableCell>
                <TableCell className="whitespace-nowrap">{formatDate(signup.signupDate)}</TableCell>
                <TableCell>
                  <Badge variant={signupBadgeVariant(signup.status)}>{signup.status}</Badge>
                </TableCell>
                <TableCell className="text-right">
                  <ApproveButton signup={signup} />
                </TableCell>
              </TableRow>
            ))}
          </DataTable>
        )}
      </QueryBody>
    </SectionCard>
  );
}

export default function DashboardPage() {
  const { showTestData } = useTestDataMode();
  return (
    <>
      <PageHeader
        title="Overview"
        description={showTestData ? 'Figures for test users' : 'Figures for real users'}
      >
        <div className="flex gap-2">
          <Button asChild variant="outline" size="sm">
            <Link to="/admin/monitoring">Monitoring Dashboard</Link>
          </Button>
          <Button asChild variant="outline" size="sm">
            <Link to="/admin/image-monitoring">Image Monitoring</Link>
          </Button>
        </div>
      </PageHeader>
      <div className="flex flex-col gap-6">
        <MetricCards />
        <RecentBetaSignups />
      </div>
    </>
  );
}
