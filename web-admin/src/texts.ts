// The spec's texts for the screens of this app (spec 000 §2, §5, §8).

export const loginToasts = {
  missing: { title: 'Missing Information', description: 'Please provide both username and password.' },
  success: { title: 'Login Successful', description: 'Welcome to the admin dashboard' },
  failure: { title: 'Login Failed', fallback: 'Invalid credentials' },
} as const;

export const dashboardTexts = {
  metricsFailed: 'Failed to fetch dashboard metrics',
  noSignups: 'No beta signups yet',
  loadingMetrics: 'Loading...',
  loadingSignups: 'Loading beta signups...',
} as const;

/** Recent Beta Signups shows this many entries (spec 000 §9). */
export const RECENT_SIGNUPS_SHOWN = 10;
