import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@sprout/ui';
import { ChartColumn, Info, type LucideIcon, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { simulatorConversationQuery } from './queries';
import { HOW_TO_USE } from './texts';
import { AnalyticsDetails, ProfileDetails } from './UserInsights';

function InsightCard({
  title,
  icon: Icon,
  description,
  children,
  testId,
}: {
  title: string;
  icon: LucideIcon;
  description?: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader className="pb-3">
        <CardTitle asChild className="flex items-center gap-2 text-base">
          <h2>
            <Icon className="size-4 text-primary" aria-hidden="true" />
            {title}
          </h2>
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

const selectFirst = <p className="text-sm text-muted-foreground">Select a test user to see this.</p>;

/** Right column: the selected user's analytics and learned profile, and how to use the simulator. */
export function InsightsPanel({ userId }: { userId: string | null }) {
  const { data: conversation } = useQuery(simulatorConversationQuery(userId));
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <InsightCard title="User Analytics" testId="user-analytics" icon={ChartColumn}>
        {conversation ? <AnalyticsDetails analytics={conversation.analytics} /> : selectFirst}
      </InsightCard>
      <InsightCard
        title="User Profile"
        testId="user-profile"
        description="Learned by Sprout from the conversation."
        icon={UserRound}
      >
        {conversation ? <ProfileDetails profile={conversation.userProfile} /> : selectFirst}
      </InsightCard>
      <InsightCard title="How to Use" testId="how-to-use" icon={Info}>
        <ol className="list-decimal space-y-1.5 pl-5 text-sm text-muted-foreground">
          {HOW_TO_USE.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </InsightCard>
    </div>
  );
}
