import { api } from '@sprout/contracts';
import { callEndpoint } from '@sprout/ui';

export function getDashboardMetrics(showTestData: boolean) {
  return callEndpoint(
    api.dashboard.metrics,
    // The spec sends showTestData only when it is on (absent means real users' data).
    { query: { showTestData: showTestData || undefined } },
    { failureMessage: 'Failed to fetch dashboard metrics' },
  );
}
