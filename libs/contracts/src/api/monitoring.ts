import type { IsoDateTime } from './common';

export type AlertLevel = 'high' | 'medium' | 'low';
export type AlertType = 'cost' | 'performance' | 'errors' | 'usage';

export interface ApiUsageAlert {
  level: AlertLevel;
  type: AlertType;
  message: string;
}

/** GET /api/monitoring/api-usage (today's model calls). */
export interface ApiUsage {
  calls: number;
  /** Dollars. */
  cost: number;
  tokens: number;
  errors: number;
  /** Milliseconds. */
  averageResponseTime: number;
  /** Recent call latencies in milliseconds, oldest first. */
  responseTimes: number[];
  /** YYYY-MM-DD */
  date: string;
  alerts: ApiUsageAlert[];
}

export interface WeeklyQualityMetrics {
  total_users: number;
  returning_users: number;
  active_users: number;
  total_messages: number;
  substantive_responses: number;
  detailed_responses: number;
  avg_messages_per_user: number;
  /** Milliseconds. */
  avg_response_time: number;
  /** Characters. */
  avg_response_length: number;
  /** Out of 7. */
  active_days: number;
  slow_responses: number;
  total_responses: number;
}

/** GET /api/monitoring/conversation-quality */
export interface ConversationQuality {
  /** 0 to 100: 80+ Excellent, 60-79 Good, below 60 Needs Attention. */
  healthScore: number;
  weeklyMetrics: WeeklyQualityMetrics;
}

export interface ServiceStatus {
  available: boolean;
  lastCheck: IsoDateTime | null;
  consecutiveFailures: number;
}

/** GET /api/monitoring/service-health; services keyed by name (e.g. database, ai_provider, sms_provider). */
export interface ServiceHealth {
  overallHealth: 'healthy' | 'degraded';
  timestamp: IsoDateTime;
  services: Record<string, ServiceStatus>;
}

/** POST /api/monitoring/force-health-check */
export interface ForceHealthCheckResponse {
  success: boolean;
  health: ServiceHealth;
}

/** Bytes-free view: megabytes, as the page shows them. */
export interface ResourceUtilization {
  heapUsed: number;
  heapTotal: number;
  rss: number;
  external: number;
}

/** GET /api/monitoring/proactive/system-health */
export interface ProactiveSystemHealth {
  status: 'normal' | 'warning' | 'critical';
  timestamp: IsoDateTime;
  activePredictions: number;
  metrics: {
    resourceUtilization: ResourceUtilization;
    /** Milliseconds, last hour. */
    averageResponseTime: number;
    /** Percent of failed messages and model calls, last hour. */
    errorRate: number;
    queueDepth: number;
  };
}

export type PredictionLevel = 'high' | 'medium' | 'low';

export interface Prediction {
  type: string;
  severity: PredictionLevel;
  confidence: PredictionLevel;
  /** e.g. "next 1 hour". */
  timeframe: string;
  currentRate: number;
  percentageChange: number;
  recommendedActions: string[];
}

/** GET /api/monitoring/proactive/predictions */
export interface PredictionsResponse {
  predictions: Prediction[];
  timestamp: IsoDateTime;
}

export interface TrendPoint {
  timestamp: IsoDateTime;
  value: number;
}

export interface Trends {
  /** Seconds per point. */
  responseTimeHistory: TrendPoint[];
  /** Percent per point. */
  errorRateHistory: TrendPoint[];
}

/** GET /api/monitoring/proactive/trends */
export interface TrendsResponse {
  trends: Trends;
  timestamp: IsoDateTime;
}

/** POST /api/monitoring/proactive/force-check */
export interface ProactiveForceCheckResponse {
  success: boolean;
  predictions: Prediction[];
}
