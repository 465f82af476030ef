// The texts of the Garden Calendar screen.

export const calendarTexts = {
  title: 'Garden Calendar',
  description: 'Timely tips and frost and heat alerts for gardeners who texted TIPS.',
  loading: 'Loading...',
  summaryFailed: 'Failed to load the garden calendar',
  subscribersFailed: 'Failed to load subscribers',
  upcomingFailed: 'Failed to load the schedule',
  sendsFailed: 'Failed to load recent sends',
  alertsFailed: 'Failed to load weather alerts',
  previewFailed: 'Preview failed',
  pauseFailed: 'Failed to change the pause switch',
  noSubscribersTitle: 'No subscribers yet',
  noSubscribersHint:
    'Gardeners subscribe by texting TIPS; replies offer it once. Subscribers show here as they join.',
  nothingScheduled: 'Nothing is scheduled for the next 14 days. Tips are scheduled as subscribers join.',
  noSendsTitle: 'No tips or alerts sent yet',
  noSendsHint: 'Each text the calendar sends shows here with its delivery status and cost.',
  noAlertsTitle: 'No weather alerts raised yet',
  noAlertsHint: 'A freeze or heat extreme forecast for a subscriber’s area within 48 hours raises one.',
  noRateYet: 'No tips sent yet',
  previewTitle: 'Preview a ZIP',
  previewDescription:
    'The tips a gardener in this ZIP would get over 8 weeks, from today or a day you choose.',
  previewFromLabel: 'Starting (optional: today)',
  previewButton: 'Preview',
  previewing: 'Previewing...',
  noTipsInPreview: 'No tips fall in these 8 weeks for this ZIP.',
  pauseLabel: 'Pause all tips',
  pausedState: 'Paused: no tip or alert goes out until you resume.',
  runningState: 'Tips and alerts go out on schedule.',
  pauseConfirmTitle: 'Pause all tips?',
  pauseConfirmDescription:
    'No tip or weather alert goes out while paused: those due meanwhile are skipped, not sent later. Replies to gardeners’ texts are not affected.',
  pauseConfirm: 'Pause tips',
  pausing: 'Pausing...',
  pausedToast: 'Tips paused',
  resumedToast: 'Tips resumed',
  pausedToastDescription: 'No tip or alert goes out until you resume.',
  resumedToastDescription: 'Tips and alerts go out on schedule again.',
} as const;

export const KIND_LABELS = {
  tip: 'Tip',
  frost_alert: 'Frost alert',
  heat_alert: 'Heat alert',
} as const;

export const ALERT_KIND_LABELS = { freeze: 'Freeze', heat: 'Heat' } as const;
