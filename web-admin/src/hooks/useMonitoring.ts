import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  forceHealthCheck,
  forceProactiveCheck,
  getAdminMetrics,
  getApiUsage,
  getConversationQuality,
  getFallbackReport,
  getPredictions,
  getProactiveSystemHealth,
  getQueues,
  getRecentMessages,
  getServiceHealth,
  getTrends,
  removeFailedJob,
  retryFailedJob,
} from '../api/monitoring';
import { QueryKeys } from '../query-keys';

/**
 * Polling of the monitoring pages, spec 001 §9: metrics 30 s, messages 15 s, API usage 10 s,
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

export function useAdminMetrics() {
  return useQuery({
    queryKey: QueryKeys.adminMetrics,
    queryFn: getAdminMetrics,
    refetchInterval: MONITORING_REFRESH_MS.adminMetrics,
  });
}

export function useRecentMessages() {
  return useQuery({
    queryKey: QueryKeys.recentMessages,
    queryFn: getRecentMessages,
    refetchInterval: MONITORING_REFRESH_MS.recentMessages,
  });
}

export function useApiUsage() {
  return useQuery({
    queryKey: QueryKeys.apiUsage,
    queryFn: getApiUsage,
    refetchInterval: MONITORING_REFRESH_MS.apiUsage,
  });
}

export function useConversationQuality() {
  return useQuery({
    queryKey: QueryKeys.conversationQuality,
    queryFn: getConversationQuality,
    refetchInterval: MONITORING_REFRESH_MS.conversationQuality,
  });
}

export function useServiceHealth() {
  return useQuery({
    queryKey: QueryKeys.serviceHealth,
    queryFn: getServiceHealth,
    refetchInterval: MONITORING_REFRESH_MS.serviceHealth,
  });
}

/** Runs every check now; afterwards the page's data is read again (spec 001 §7). */
export function useForceHealthCheck() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: forceHealthCheck,
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: QueryKeys.serviceHealth }),
        client.invalidateQueries({ queryKey: QueryKeys.queues }),
      ]),
  });
}

export function useProactiveSystemHealth() {
  return useQuery({
    queryKey: QueryKeys.proactiveSystemHealth,
    queryFn: getProactiveSystemHealth,
    refetchInterval: MONITORING_REFRESH_MS.proactiveSystemHealth,
  });
}

export function usePredictions() {
  return useQuery({
    queryKey: QueryKeys.predictions,
    queryFn: getPredictions,
    refetchInterval: MONITORING_REFRESH_MS.predictions,
  });
}

export function useTrends() {
  return useQuery({
    queryKey: QueryKeys.trends,
    queryFn: getTrends,
    refetchInterval: MONITORING_REFRESH_MS.trends,
  });
}

/** The proactive page's Force Check: the page reloads afterwards (spec 001 §7). */
export function useForceProactiveCheck() {
  return useMutation({ mutationFn: forceProactiveCheck });
}

export function useFallbackReport() {
  return useQuery({
    queryKey: QueryKeys.fallbackReport,
    queryFn: getFallbackReport,
    refetchInterval: MONITORING_REFRESH_MS.fallbackReport,
  });
}

export function useQueues() {
  return useQuery({
    queryKey: QueryKeys.queues,
    queryFn: getQueues,
    refetchInterval: MONITORING_REFRESH_MS.queues,
  });
}

/** Retry or remove a failed job; the queues are read again afterwards. */
export function useFailedJobAction(action: 'retry' | 'remove') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: action === 'retry' ? retryFailedJob : removeFailedJob,
    onSettled: () => client.invalidateQueries({ queryKey: QueryKeys.queues }),
  });
}
