// The Dashboard's texts (spec 000 §5, §8).

export const dashboardTexts = {
  metricsFailed: 'Failed to fetch dashboard metrics',
  noSignups: 'No beta signups yet',
  loadingMetrics: 'Loading...',
  loadingSignups: 'Loading beta signups...',
} as const;

/** Recent Beta Signups shows this many entries (spec 000 §9). */
export const RECENT_SIGNUPS_SHOWN = 10;
