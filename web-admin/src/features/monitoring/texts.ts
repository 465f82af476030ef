// The monitoring pages' texts.

export const monitoringTexts = {
  loading: 'Loading...',
  apiMetricsFailed: 'Failed to load API metrics',
  conversationMetricsFailed: 'Failed to load conversation metrics',
  serviceHealthFailed: 'Failed to load service health data',
  recentMessagesFailed: 'Failed to load recent messages',
  fallbackFailed: 'Failed to load fallback data',
  queuesFailed: 'Failed to load queues',
  healthCheckComplete: {
    title: 'Health Check Complete',
    description: 'Service health status has been updated',
  },
  healthCheckFailed: { title: 'Health Check Failed', description: 'Unable to perform health check' },
  forceHealthCheck: 'Force Health Check',
  forceCheck: 'Force Check',
  allSystemsNormal: 'All Systems Normal',
  noMessages: 'No messages yet',
  viewAll: 'View All',
  available: 'Available',
  unavailable: 'Unavailable',
  notChecked: 'Not checked',
  withoutMonitorState:
    'Redis is shown as the api-gateway sees it and the database as it checks it itself; the other checks are kept in Redis.',
  monitorStateUnknown: "The monitor's last round cannot be read until Redis answers again.",
} as const;

/** The monitoring dashboard's change texts: fixed placeholders, not computed. */
export const DASHBOARD_CHANGE_TEXTS = {
  activeUsers: '+12% from last week',
  messagesToday: '+8% from yesterday',
  avgResponseTime: '-0.2s from yesterday',
  apiCost: '+5% from yesterday',
} as const;

/** What each average response time measures: the cards and the tabs read different clocks. */
export const AVERAGE_MEASURES = {
  replies: "Text received to Sprout's reply, real users' replies today (UTC)",
  modelCalls: "AI provider call duration, today's model calls (UTC), test users included",
  weeklyReplies: "Text received to Sprout's reply, real users' replies over the last 7 days",
} as const;
