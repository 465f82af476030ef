import { api } from '@sprout/contracts';
import { endpointMutation, endpointQuery, invalidateEndpoint } from '@sprout/ui';
import type { QueryClient } from '@tanstack/react-query';
import { calendarTexts as t } from './texts';

/** The screen's figures refresh every minute: sends and alerts happen on a schedule, not by the second. */
const CALENDAR_REFRESH_MS = 60_000;

export const SUBSCRIBERS_PAGE_SIZE = 25;

export const calendarSummaryQuery = {
  ...endpointQuery(api.gardenCalendar.summary, {}, { failureMessage: t.summaryFailed }),
  refetchInterval: CALENDAR_REFRESH_MS,
};

export const calendarSubscribersQuery = (page: number) =>
  endpointQuery(
    api.gardenCalendar.subscribers,
    { query: { page, pageSize: SUBSCRIBERS_PAGE_SIZE } },
    { failureMessage: t.subscribersFailed },
  );

export const calendarUpcomingQuery = {
  ...endpointQuery(api.gardenCalendar.upcoming, {}, { failureMessage: t.upcomingFailed }),
  refetchInterval: CALENDAR_REFRESH_MS,
};

export const calendarSendsQuery = {
  ...endpointQuery(api.gardenCalendar.sends, { query: { limit: 50 } }, { failureMessage: t.sendsFailed }),
  refetchInterval: CALENDAR_REFRESH_MS,
};

export const calendarAlertsQuery = {
  ...endpointQuery(api.gardenCalendar.alerts, { query: { limit: 20 } }, { failureMessage: t.alertsFailed }),
  refetchInterval: CALENDAR_REFRESH_MS,
};

/** A ZIP's preview from a day (empty: today there): asked for when the admin submits the form. */
export const calendarPreviewQuery = (zip: string, from: string) =>
  endpointQuery(
    api.gardenCalendar.preview,
    { query: from === '' ? { zip } : { zip, from } },
    { failureMessage: t.previewFailed },
  );

/** The pause switch; the summary is read again afterwards. */
export const calendarPauseMutation = (queryClient: QueryClient) =>
  endpointMutation(api.gardenCalendar.pause, {
    failureMessage: t.pauseFailed,
    onSuccess: () => invalidateEndpoint(queryClient, api.gardenCalendar.summary),
  });
