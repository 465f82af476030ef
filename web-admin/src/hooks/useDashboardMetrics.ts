import { useQuery } from '@tanstack/react-query';
import { getDashboardMetrics } from '../api/dashboard';
import { QueryKeys } from '../query-keys';
import { useTestDataMode } from './useTestDataMode';

export const DASHBOARD_METRICS_REFRESH_MS = 30_000;

export function useDashboardMetrics() {
  const { showTestData } = useTestDataMode();
  return useQuery({
    queryKey: QueryKeys.dashboardMetrics(showTestData),
    queryFn: () => getDashboardMetrics(showTestData),
    refetchInterval: DASHBOARD_METRICS_REFRESH_MS,
  });
}
