import { callEndpoint } from '@sprout/ui';
import {
  type AdminMetrics,
  type ApiUsage,
  type ConversationQuality,
  type FallbackReport,
  type ForceHealthCheckResponse,
  type MonitoringMessage,
  type PredictionsResponse,
  type ProactiveForceCheckResponse,
  type ProactiveSystemHealth,
  type QueueJobActionResponse,
  type QueuesResponse,
  type ServiceHealthReport,
  type TrendsResponse,
  api,
} from '@sprout/contracts';

// The monitoring pages' calls (spec 001 §7 and ours), all from the endpoint table.

const m = api.monitoring;

/** Thrown when the forced health check fails (spec 001 §8). */
export const FORCE_HEALTH_CHECK_FAILED = 'Failed to force health check';

export function getAdminMetrics(): Promise<AdminMetrics> {
  return callEndpoint(m.adminMetrics, {});
}

/** The spec's call sends nothing: the server's default number of newest messages. */
export function getRecentMessages(): Promise<MonitoringMessage[]> {
  return callEndpoint(m.recentMessages, {});
}

export function getApiUsage(): Promise<ApiUsage> {
  return callEndpoint(m.apiUsage, {});
}

export function getConversationQuality(): Promise<ConversationQuality> {
  return callEndpoint(m.conversationQuality, {});
}

export function getServiceHealth(): Promise<ServiceHealthReport> {
  return callEndpoint(m.serviceHealth, {});
}

export function forceHealthCheck(): Promise<ForceHealthCheckResponse> {
  return callEndpoint(m.forceHealthCheck, {}, { failureMessage: FORCE_HEALTH_CHECK_FAILED });
}

export function getProactiveSystemHealth(): Promise<ProactiveSystemHealth> {
  return callEndpoint(m.proactiveSystemHealth, {});
}

export function getPredictions(): Promise<PredictionsResponse> {
  return callEndpoint(m.predictions, {});
}

export function getTrends(): Promise<TrendsResponse> {
  return callEndpoint(m.trends, {});
}

export function forceProactiveCheck(): Promise<ProactiveForceCheckResponse> {
  return callEndpoint(m.proactiveForceCheck, {});
}

export function getFallbackReport(): Promise<FallbackReport> {
  return callEndpoint(m.fallback, {});
}

export function getQueues(): Promise<QueuesResponse> {
  return callEndpoint(m.queues, {});
}

export function retryFailedJob(job: { queue: string; jobId: string }): Promise<QueueJobActionResponse> {
  return callEndpoint(m.retryJob, { params: job });
}

export function removeFailedJob(job: { queue: string; jobId: string }): Promise<QueueJobActionResponse> {
  return callEndpoint(m.removeJob, { params: job });
}
