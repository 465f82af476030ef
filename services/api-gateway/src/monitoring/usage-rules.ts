import {
  API_USAGE_DISPLAY_LIMITS,
  type ApiUsageAlert,
  QUALITY_WINDOW_DAYS,
  type WeeklyQualityMetrics,
} from '@sprout/contracts';

// The rules behind the monitoring dashboard's alerts and health score, free of I/O.

/** Alerts need this many calls before an error rate means anything. */
const ALERT_MIN_CALLS = 5;
const ERROR_RATE_MEDIUM_PERCENT = 5;
const ERROR_RATE_HIGH_PERCENT = 10;
const SLOW_API_MEDIUM_MS = 5_000;
const SLOW_API_HIGH_MS = 10_000;

const percent = (value: number, limit: number): number => Math.round((value / limit) * 100);
const dollars = (value: number): string => `$${value.toFixed(4)}`;

/**
 * Alerts on today's usage: calls and cost against the display limits (above 80 % high, above
 * 60 % medium, as the usage badges colour them), the error rate (10 % high, 5 % medium, from 5
 * calls) and the average response time (10 s high, 5 s medium). Most severe first.
 */
export const usageAlerts = (usage: {
  calls: number;
  cost: number;
  errors: number;
  averageResponseTime: number;
}): ApiUsageAlert[] => {
  const alerts: ApiUsageAlert[] = [];
  const costShare = percent(usage.cost, API_USAGE_DISPLAY_LIMITS.cost);
  if (costShare > 60) {
    alerts.push({
      level: costShare > 80 ? 'high' : 'medium',
      type: 'cost',
      message: `API cost today is ${dollars(usage.cost)}, ${costShare}% of the $${API_USAGE_DISPLAY_LIMITS.cost.toFixed(2)} daily limit`,
    });
  }
  const callShare = percent(usage.calls, API_USAGE_DISPLAY_LIMITS.calls);
  if (callShare > 60) {
    alerts.push({
      level: callShare > 80 ? 'high' : 'medium',
      type: 'usage',
      message: `${usage.calls.toLocaleString('en-US')} API calls today, ${callShare}% of the ${API_USAGE_DISPLAY_LIMITS.calls.toLocaleString('en-US')} daily limit`,
    });
  }
  if (usage.calls >= ALERT_MIN_CALLS) {
    const errorRate = (usage.errors / usage.calls) * 100;
    if (errorRate >= ERROR_RATE_MEDIUM_PERCENT) {
      alerts.push({
        level: errorRate >= ERROR_RATE_HIGH_PERCENT ? 'high' : 'medium',
        type: 'errors',
        message: `${usage.errors} of ${usage.calls} API calls failed today (${errorRate.toFixed(1)}%)`,
      });
    }
  }
  if (usage.averageResponseTime >= SLOW_API_MEDIUM_MS) {
    alerts.push({
      level: usage.averageResponseTime >= SLOW_API_HIGH_MS ? 'high' : 'medium',
      type: 'performance',
      message: `API calls take ${(usage.averageResponseTime / 1000).toFixed(1)} s on average today`,
    });
  }
  const order = { high: 0, medium: 1, low: 2 } as const;
  return alerts.sort((a, b) => order[a.level] - order[b.level]);
};

/** A gardener who sends this many messages a week is well engaged (2 questions and answers). */
const ENGAGED_MESSAGES_PER_USER = 4;

/**
 * The conversation health score, 0 to 100, from the week's metrics: replies on time (35), replies
 * of substance (25), detailed replies (10), gardeners coming back (10), messages per gardener
 * (5, full at 4) and active days (15, out of 7). No replies this week: 0.
 */
export const healthScoreOf = (m: WeeklyQualityMetrics): number => {
  if (m.total_responses === 0) return 0;
  const share = (part: number, whole: number): number => (whole > 0 ? Math.min(part / whole, 1) : 0);
  const score =
    35 * (1 - share(m.slow_responses, m.total_responses)) +
    25 * share(m.substantive_responses, m.total_responses) +
    10 * share(m.detailed_responses, m.total_responses) +
    10 * share(m.returning_users, m.total_users) +
    5 * share(m.avg_messages_per_user, ENGAGED_MESSAGES_PER_USER) +
    15 * share(m.active_days, QUALITY_WINDOW_DAYS);
  return Math.round(score);
};
