import { fetchJson, withQuery } from '@sprout/ui';
import type { DashboardMetricsResponse } from './types';

export function getDashboardMetrics(showTestData: boolean): Promise<DashboardMetricsResponse> {
  return fetchJson<DashboardMetricsResponse>(
    withQuery('/api/dashboard/metrics', { showTestData: showTestData ? true : undefined }),
    'Failed to fetch dashboard metrics',
  );
}
