import { type EndpointDefinition, type EndpointRequest, api } from '@sprout/contracts';
import { endpointMutation, endpointQuery, invalidateEndpoint } from '@sprout/ui';
import type { QueryClient } from '@tanstack/react-query';

/**
 * Polling of the monitoring pages: metrics 30 s, messages 15 s, API usage 10 s,
 * quality 30 s, service health 30 s, proactive health and predictions 30 s, trends 60 s. Ours:
 * the fallback report every 30 s and the queues panel every 10 s.
 */
export const MONITORING_REFRESH_MS = {
  adminMetrics: 30_000,
  recentMessages: 15_000,
  apiUsage: 10_000,
  conversationQuality: 30_000,
  serviceHealth: 30_000,
  proactiveSystemHealth: 30_000,
  predictions: 30_000,
  trends: 60_000,
  fallbackReport: 30_000,
  queues: 10_000,
} as const;

/** Thrown when the forced health check fails. */
const FORCE_HEALTH_CHECK_FAILED = 'Failed to force health check';

// Each page's reads take no input (their calls send nothing).
const polled = <D extends EndpointDefinition>(definition: D, refetchInterval: number) => ({
  ...endpointQuery(definition, {} as EndpointRequest<D>),
  refetchInterval,
});

const m = api.monitoring;
export const adminMetricsQuery = polled(m.adminMetrics, MONITORING_REFRESH_MS.adminMetrics);
export const recentMessagesQuery = polled(m.recentMessages, MONITORING_REFRESH_MS.recentMessages);
export const apiUsageQuery = polled(m.apiUsage, MONITORING_REFRESH_MS.apiUsage);
export const conversationQualityQuery = polled(
  m.conversationQuality,
  MONITORING_REFRESH_MS.conversationQuality,
);
export const serviceHealthQuery = polled(m.serviceHealth, MONITORING_REFRESH_MS.serviceHealth);
export const proactiveSystemHealthQuery = polled(
  m.proactiveSystemHealth,
  MONITORING_REFRESH_MS.proactiveSystemHealth,
);
export const predictionsQuery = polled(m.predictions, MONITORING_REFRESH_MS.predictions);
export const trendsQuery = polled(m.trends, MONITORING_REFRESH_MS.trends);
export const fallbackReportQuery = polled(m.fallback, MONITORING_REFRESH_MS.fallbackReport);
export const queuesQuery = polled(m.queues, MONITORING_REFRESH_MS.queues);

/** Runs every check now; afterwards the page's data is read again. */
export const forceHealthCheckMutation = (queryClient: QueryClient) =>
  endpointMutation(m.forceHealthCheck, {
    failureMessage: FORCE_HEALTH_CHECK_FAILED,
    onSettled: () =>
      Promise.all([
        invalidateEndpoint(queryClient, m.serviceHealth),
        invalidateEndpoint(queryClient, m.queues),
      ]),
  });

/** Retry or remove a failed job; the queues are read again afterwards. */
export const failedJobMutation = (queryClient: QueryClient, action: 'retry' | 'remove') =>
  endpointMutation(action === 'retry' ? m.retryJob : m.removeJob, {
    onSettled: () => invalidateEndpoint(queryClient, m.queues),
  });
