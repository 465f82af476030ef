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
} from '@sprout/ui';
import { DollarSign, type LucideIcon, MessageSquare, UserCheck, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import type { BetaSignupDto } from '../api/types';
import { PageHeader } from '../components/PageHeader';
import { useApproveBetaSignup } from '../hooks/useApproveBetaSignup';
import { useBetaSignups } from '../hooks/useBetaSignups';
import { useDashboardMetrics } from '../hooks/useDashboardMetrics';
import { useTestDataMode } from '../hooks/useTestDataMode';
import { recentSignups, signupBadgeVariant } from '../recent-signups';
import { dashboardTexts } from '../texts';

function MetricCard({
  title,
  icon: Icon,
  value,
  detail,
  testId,
}: {
  title: string;
  icon: LucideIcon;
  value: ReactNode;
  detail: ReactNode;
  testId: string;
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader className="flex-row items-center justify-between gap-2 pb-2">
        <CardTitle asChild className="text-sm font-medium text-muted-foreground">
          <h2>{title}</h2>
        </CardTitle>
        <Icon className="size-4 text-primary" aria-hidden="true" />
      </CardHeader>
      <CardContent>
        <p className="text-3xl font-bold tracking-tight" data-testid={`${testId}-value`}>
          {value}
        </p>
        <p className="mt-1 text-xs text-muted-foreground" data-testid={`${testId}-detail`}>
          {detail}
        </p>
      </CardContent>
    </Card>
  );
}

function MetricCards() {
  const { data: metrics, isPending, isError } = useDashboardMetrics();
  if (isError) {
    return (
      <p
        role="alert"
        className="rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm text-destructive"
      >
        {dashboardTexts.metricsFailed}
      </p>
    );
  }
  const loading = dashboardTexts.loadingMetrics;
  return (
    <section aria-label="Metrics" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <MetricCard
        testId="metric-beta-signups"
        title="Beta Signups"
        icon={UserCheck}
        value={isPending ? loading : formatNumber(metrics.betaSignups.total)}
        detail={isPending ? '' : `${formatNumber(metrics.betaSignups.pending)} pending`}
      />
      <MetricCard
        testId="metric-active-users"
        title="Active Users"
        icon={Users}
        value={isPending ? loading : formatNumber(metrics.activeUsers)}
        detail="Users with recent conversations"
      />
      <MetricCard
        testId="metric-messages-today"
        title="Messages Today"
        icon={MessageSquare}
        value={isPending ? loading : formatNumber(metrics.messagesToday)}
        detail={isPending ? '' : `Avg response: ${formatNumber(metrics.avgResponseTime)}ms`}
      />
      <MetricCard
        testId="metric-todays-cost"
        title="Today's Cost"
        icon={DollarSign}
        value={isPending ? loading : formatDollars(metrics.todaysCost, 2)}
        detail="API usage"
      />
    </section>
  );
}

function ApproveButton({ signup }: { signup: BetaSignupDto }) {
  const approve = useApproveBetaSignup();
  if (signup.status !== 'pending') return null;
  return (
    <Button
      size="sm"
      disabled={approve.isPending}
      aria-label={`Approve ${signup.email}`}
      onClick={() =>
        approve.mutate(signup.id, {
          onSuccess: () =>
            toast({ title: 'Signup Approved', description: `${signup.email} is approved for the beta.` }),
          onError: (error) =>
            toast({
              variant: 'destructive',
              title: 'Error',
              description: serverMessage(error, 'Failed to approve signup.'),
            }),
        })
      }
    >
      {approve.isPending ? 'Approving...' : 'Approve'}
    </Button>
  );
}

function RecentBetaSignups() {
  const { data: signups, isPending, isError } = useBetaSignups();
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
      />
      <div className="flex flex-col gap-6">
        <MetricCards />
        <RecentBetaSignups />
      </div>
    </>
  );
}
