import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../components/PageHeader';
import { QueryBody } from '../../components/QueryBody';
import { SectionCard } from '../../components/SectionCard';
import { FailureNotice } from '../../components/StatCard';
import { AlertsCard, SendsCard, SubscribersCard } from './CalendarTables';
import { CalendarStatCards } from './CalendarStatCards';
import { PauseSwitch } from './PauseSwitch';
import { calendarSummaryQuery, calendarUpcomingQuery } from './queries';
import { calendarTexts as t } from './texts';
import { UpcomingChart } from './UpcomingChart';
import { ZipPreview } from './ZipPreview';

function UpcomingCard() {
  const upcoming = useQuery(calendarUpcomingQuery);
  return (
    <SectionCard
      title="Next 14 days"
      description="Tips and alerts scheduled for each day, by kind."
      testId="calendar-upcoming"
    >
      <QueryBody query={upcoming} loading={t.loading} failure={t.upcomingFailed}>
        {(data) => <UpcomingChart upcoming={data} />}
      </QueryBody>
    </SectionCard>
  );
}

/** /admin/garden-calendar: who subscribed, what goes out next, a ZIP's preview, sends, alerts, the pause switch. */
export default function GardenCalendarPage() {
  const summary = useQuery(calendarSummaryQuery);
  return (
    <>
      <PageHeader title={t.title} description={t.description}>
        <PauseSwitch paused={summary.data?.paused} />
      </PageHeader>
      <div className="flex flex-col gap-6">
        {summary.isError ? (
          <FailureNotice>{t.summaryFailed}</FailureNotice>
        ) : (
          <CalendarStatCards summary={summary.data} />
        )}
        <UpcomingCard />
        <ZipPreview />
        <SubscribersCard />
        <SendsCard />
        <AlertsCard />
      </div>
    </>
  );
}
