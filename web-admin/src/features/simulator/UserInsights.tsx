import type { SimulatorAnalytics, UserProfileDto } from '@sprout/contracts';
import { Badge, formatDollars, formatNumber } from '@sprout/ui';
import type { ReactNode } from 'react';

/** A label beside its value, or (`stacked`) above it: profile values are sentences that need the full width. */
const ROW_CLASSES = {
  beside: {
    row: 'flex items-baseline justify-between gap-3 py-1.5',
    label: 'text-sm text-muted-foreground',
    value: 'text-right text-sm font-medium break-words',
  },
  stacked: {
    row: 'flex flex-col gap-0.5 py-2',
    label: 'text-xs font-medium tracking-wide text-muted-foreground uppercase',
    value: 'text-sm break-words',
  },
} as const;

function Row({
  label,
  children,
  testId,
  stacked = false,
}: {
  label: string;
  children: ReactNode;
  testId: string;
  stacked?: boolean;
}) {
  const classes = ROW_CLASSES[stacked ? 'stacked' : 'beside'];
  return (
    <div className={classes.row}>
      <dt className={classes.label}>{label}</dt>
      <dd className={classes.value} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** Totals of the test user's conversation and what each model cost. */
export function AnalyticsDetails({ analytics }: { analytics: SimulatorAnalytics }) {
  return (
    <div className="flex flex-col gap-3">
      <dl className="divide-y divide-border">
        <Row label="Total Messages" testId="analytics-total-messages">
          {formatNumber(analytics.totalMessages)}
        </Row>
        <Row label="Total Tokens" testId="analytics-total-tokens">
          {formatNumber(analytics.totalTokens)}
        </Row>
        <Row label="Total Cost" testId="analytics-total-cost">
          {formatDollars(analytics.totalCost, 4)}
        </Row>
        <Row label="Avg Tokens/Message" testId="analytics-average-tokens">
          {formatNumber(analytics.averageTokensPerMessage)}
        </Row>
        <Row label="Primary Model" testId="analytics-primary-model">
          {analytics.primaryModel ?? '—'}
        </Row>
      </dl>
      <div>
        <h4 className="mb-1.5 text-sm font-semibold">Model Usage</h4>
        {analytics.modelUsage.length === 0 ? (
          <p className="text-sm text-muted-foreground">No replies yet</p>
        ) : (
          <ul className="flex flex-col gap-2" data-testid="analytics-model-usage">
            {analytics.modelUsage.map((usage) => (
              <li key={usage.modelName} className="rounded-md bg-muted/60 px-3 py-2 text-sm">
                <p className="font-medium break-all">{usage.modelName}</p>
                <p className="text-xs text-muted-foreground">
                  {formatNumber(usage.messageCount)} {usage.messageCount === 1 ? 'message' : 'messages'} ·{' '}
                  {formatNumber(usage.totalTokens)} tokens · {formatDollars(usage.totalCost, 4)}
                </p>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

const notLearned = <span className="text-muted-foreground">Not learned yet</span>;

/** What Sprout has learned about the test user; preferences are shown as Topics. */
export function ProfileDetails({ profile }: { profile: UserProfileDto }) {
  return (
    <dl className="divide-y divide-border">
      <Row stacked label="Region" testId="profile-region">
        {profile.region ?? notLearned}
      </Row>
      <Row stacked label="Growing Context" testId="profile-growing-context">
        {profile.growingContext ?? notLearned}
      </Row>
      <Row stacked label="Topics" testId="profile-topics">
        {profile.preferences.length === 0 ? (
          notLearned
        ) : (
          <span className="flex flex-wrap gap-1 pt-0.5">
            {profile.preferences.map((topic) => (
              <Badge key={topic} variant="secondary">
                {topic}
              </Badge>
            ))}
          </span>
        )}
      </Row>
      <Row stacked label="Conversation Style" testId="profile-conversation-style">
        {profile.conversationStyle ?? notLearned}
      </Row>
    </dl>
  );
}
