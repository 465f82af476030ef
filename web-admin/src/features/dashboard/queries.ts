import { api } from '@sprout/contracts';
import { endpointMutation, endpointQuery, invalidateEndpoint } from '@sprout/ui';
import type { QueryClient } from '@tanstack/react-query';
import { dashboardTexts } from './texts';

const DASHBOARD_METRICS_REFRESH_MS = 30_000;

export const dashboardMetricsQuery = (showTestData: boolean) => ({
  // showTestData is sent only when it is on (absent means real users' data).
  ...endpointQuery(
    api.dashboard.metrics,
    { query: { showTestData: showTestData || undefined } },
    { failureMessage: dashboardTexts.metricsFailed },
  ),
  refetchInterval: DASHBOARD_METRICS_REFRESH_MS,
});

export const approveSignupMutation = (queryClient: QueryClient) =>
  endpointMutation(api.waitlist.approve, {
    onSuccess: () =>
      Promise.all([
        invalidateEndpoint(queryClient, api.waitlist.list),
        // The Beta Signups card counts pending signups.
        invalidateEndpoint(queryClient, api.dashboard.metrics),
      ]),
  });
