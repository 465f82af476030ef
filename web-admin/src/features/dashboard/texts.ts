// The Dashboard's texts.

export const dashboardTexts = {
  metricsFailed: 'Failed to fetch dashboard metrics',
  noSignups: 'No beta signups yet',
  loadingMetrics: 'Loading...',
  loadingSignups: 'Loading beta signups...',
} as const;

/** Recent Beta Signups shows this many entries. */
export const RECENT_SIGNUPS_SHOWN = 10;
