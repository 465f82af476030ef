import type { SenderRateLimit, UserDetail } from '@sprout/contracts';
import {
  Badge,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatDate,
  formatDateTime,
  formatDollars,
  formatNumber,
  formatPhoneNumber,
  formatUtcDay,
  LoadingText,
  TableCell,
  TableRow,
} from '@sprout/ui';
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { TabPanels } from '../../components/TabPanels';
import { DataTable, right } from '../../components/DataTable';
import { LabelledValues } from '../../components/LabelledValues';
import { userDetailQuery } from './queries';
import { engagementLevel } from './engagement';
import { isProfileEmpty } from './profile';
import { limitInWords, resumesInWords, unansweredInWords } from './rate-limit';
import { usersTexts } from './texts';
import { UserConversationsTab } from './UserConversationsTab';
import { ActiveBadge } from '../../components/ActiveBadge';

/** The selected user's panel: Profile, Analytics and Conversations tabs, polled while selected. */
export function UserDetailPanel({ userId }: { userId: string }) {
  const { data: user, isPending, isError } = useQuery(userDetailQuery(userId));
  return (
    <Card data-testid="user-detail">
      {isPending ? (
        <CardContent className="pt-6">
          <LoadingText>{usersTexts.loadingDetail}</LoadingText>
        </CardContent>
      ) : isError ? (
        <CardContent className="pt-6">
          <p role="alert" className="py-6 text-center text-sm text-red-600">
            {usersTexts.detailFailed}
          </p>
        </CardContent>
      ) : (
        <>
          <CardHeader>
            <CardTitle asChild>
              <h2>{formatPhoneNumber(user.phoneNumber)}</h2>
            </CardTitle>
            <CardDescription>
              User details · {engagementLevel(user.analytics.totalMessages)} engagement
            </CardDescription>
            {user.rateLimit && <RateLimitNotice limit={user.rateLimit} />}
          </CardHeader>
          <CardContent>
            <TabPanels
              listLabel="User details"
              contentClassName="mt-4"
              tabs={[
                { value: 'profile', label: 'Profile', content: <ProfileTab user={user} /> },
                { value: 'analytics', label: 'Analytics', content: <AnalyticsTab user={user} /> },
                {
                  value: 'conversations',
                  label: 'Conversations',
                  content: <UserConversationsTab userId={user.id} />,
                },
              ]}
            />
          </CardContent>
        </>
      )}
    </Card>
  );
}

/** The user is over a per-sender reply limit: since when, which limit, until when. */
function RateLimitNotice({ limit }: { limit: SenderRateLimit }) {
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm" data-testid="rate-limit">
      <Badge variant="destructive">Rate limited</Badge>
      <span className="text-muted-foreground">
        since {formatDateTime(limit.limitedAt)} ({limitInWords(limit)}), {resumesInWords(limit)} ·{' '}
        {unansweredInWords(limit.refusedTexts)}
      </span>
    </p>
  );
}

/** "AI $0.0012 · SMS $0.0166": the AI's cost with what sending cost beside it. */
const costsInWords = (ai: number, sms: number): string =>
  `AI ${formatDollars(ai, 4)} · SMS ${formatDollars(sms, 4)}`;

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <section className="rounded-lg border border-border p-4" data-testid={testId}>
      <h3 className="mb-3 text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

function Fields({ rows }: { rows: readonly { label: string; value: ReactNode }[] }) {
  return (
    <LabelledValues
      rows={rows}
      className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm"
      rowTestId="field"
      strong="value"
    />
  );
}

const notSet = <span className="font-normal text-muted-foreground">Not set</span>;

function ProfileTab({ user }: { user: UserDetail }) {
  const { profile } = user;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Section title="Basic Information" testId="basic-information">
        <Fields
          rows={[
            { label: 'Phone Number', value: formatPhoneNumber(user.phoneNumber) },
            { label: 'Region', value: user.region ?? profile.region ?? notSet },
            { label: 'Joined', value: formatDate(user.createdAt) },
            { label: 'Status', value: <ActiveBadge active={user.isActive} /> },
            { label: 'Profile Completion', value: `${user.profileCompletionScore}%` },
          ]}
        />
      </Section>
      <Section title="Profile Details" testId="profile-details">
        {isProfileEmpty(profile) ? (
          <p className="text-sm text-muted-foreground">{usersTexts.noProfileData}</p>
        ) : (
          <Fields
            rows={[
              { label: 'Region', value: profile.region ?? notSet },
              { label: 'Growing Context', value: profile.growingContext ?? notSet },
              {
                label: 'Preferences',
                value: profile.preferences.length > 0 ? profile.preferences.join(', ') : notSet,
              },
              { label: 'Conversation Style', value: profile.conversationStyle ?? notSet },
            ]}
          />
        )}
      </Section>
    </div>
  );
}

function AnalyticsTab({ user }: { user: UserDetail }) {
  const { analytics } = user;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Section title="Engagement Metrics" testId="engagement-metrics">
        <Fields
          rows={[
            { label: 'Total Messages', value: formatNumber(analytics.totalMessages) },
            { label: 'Conversation Sessions', value: formatNumber(analytics.conversationSessions) },
            { label: 'Total Tokens', value: formatNumber(analytics.totalTokens) },
            {
              label: 'Avg Tokens per Message',
              value: new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(
                analytics.avgTokensPerMessage,
              ),
            },
            { label: 'Total Cost', value: costsInWords(analytics.totalCost, analytics.totalSmsCost) },
          ]}
        />
      </Section>
      <Section title="Recent Activity (30 days)" testId="recent-activity">
        {analytics.recentActivity.length === 0 ? (
          <p className="text-sm text-muted-foreground">{usersTexts.noRecentActivity}</p>
        ) : (
          <div className="max-h-72 overflow-y-auto">
            <DataTable headings={['Date', right('Messages'), right('Cost'), right('SMS Cost')]}>
              {analytics.recentActivity.map((day) => (
                <TableRow key={day.date} data-testid="activity-row">
                  <TableCell>{formatUtcDay(day.date)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(day.messages)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatDollars(day.cost, 4)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatDollars(day.smsCost, 4)}</TableCell>
                </TableRow>
              ))}
            </DataTable>
          </div>
        )}
      </Section>
    </div>
  );
}
