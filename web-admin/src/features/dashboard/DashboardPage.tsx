import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatDate,
  formatDollars,
  formatNumber,
  LoadingText,
  serverMessage,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  toast,
  endpointQuery,
} from '@sprout/ui';
import { Check, DollarSign, MessageSquare, UserCheck, Users } from 'lucide-react';
import { Link } from 'react-router';
import { api, type BetaSignupDto } from '@sprout/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '../../components/PageHeader';
import { FailureNotice, StatCard } from '../../components/StatCard';
import { useTestDataMode } from '../../test-data-mode';
import { approveSignupMutation, dashboardMetricsQuery } from './queries';
import { recentSignups, signupBadgeVariant } from './recent-signups';
import { dashboardTexts } from './texts';

function MetricCards() {
  const {
    data: metrics,
    isPending,
    isError,
  } = useQuery(dashboardMetricsQuery(useTestDataMode().showTestData));
  if (isError) return <FailureNotice>{dashboardTexts.metricsFailed}</FailureNotice>;
  const loading = dashboardTexts.loadingMetrics;
  return (
    <section aria-label="Metrics" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        testId="metric-beta-signups"
        title="Beta Signups"
        icon={UserCheck}
        value={isPending ? loading : formatNumber(metrics.betaSignups.total)}
        detail={isPending ? '' : `${formatNumber(metrics.betaSignups.pending)} pending`}
      />
      <StatCard
        testId="metric-active-users"
        title="Active Users"
        icon={Users}
        value={isPending ? loading : formatNumber(metrics.activeUsers)}
        detail="Users with recent conversations"
      />
      <StatCard
        testId="metric-messages-today"
        title="Messages Today"
        icon={MessageSquare}
        value={isPending ? loading : formatNumber(metrics.messagesToday)}
        detail={isPending ? '' : `Avg response: ${formatNumber(metrics.avgResponseTime)}ms`}
      />
      <StatCard
        testId="metric-todays-cost"
        title="Today's Cost"
        icon={DollarSign}
        value={isPending ? loading : formatDollars(metrics.todaysCost, 2)}
        detail={
          <>
            API usage
            {!isPending && (
              <span data-testid="metric-todays-sms-cost">
                {' '}
                · SMS {formatDollars(metrics.todaysSmsCost, 2)}
              </span>
            )}
          </>
        }
      />
    </section>
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
  const { data: signups, isPending, isError } = useQuery(endpointQuery(api.waitlist.list, {}));
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Recent Beta Signups</h2>
        </CardTitle>
        <CardDescription>The latest people to join the waitlist.</CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <LoadingText>{dashboardTexts.loadingSignups}</LoadingText>
        ) : isError ? (
          <p role="alert" className="py-6 text-center text-sm text-destructive">
            Failed to fetch beta signups
          </p>
        ) : signups.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">{dashboardTexts.noSignups}</p>
        ) : (
          <Table data-testid="beta-signups">
            <TableHeader>
              <TableRow>
                <TableHead>Email</TableHead>
                <TableHead>Zip Code</TableHead>
                <TableHead>Code</TableHead>
                <TableHead>Signup Date</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {recentSignups(signups).map((signup) => (
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
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
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
