// The texts of the Survey campaigns screen.

export const surveyTexts = {
  title: 'Survey Campaigns',
  description: 'Surveys delivered inside conversations to existing or new users.',
  loadingStats: 'Loading...',
  loading: 'Loading campaigns...',
  emptyTitle: 'No Surveys Yet',
  emptyHint: 'Create a campaign to send a survey link in gardeners’ conversations.',
  createCampaign: 'Create Campaign',
  viewSurvey: 'View Survey',
  viewDetails: 'View Details',
  pause: 'Pause',
  resume: 'Resume',
  noEndDate: 'No end date',
  existingUsers: 'Existing Users',
  existingUsersHint: 'Reached in their next conversation',
  newUsers: 'New Users',
  newUsersHint: 'Reached in their second conversation',
  loadingDeliveries: 'Loading deliveries...',
  noDeliveries: 'No deliveries yet',
  pending: 'Pending',
  saveUrl: 'Save URL',
} as const;

export const STATUS_LABELS = {
  live: 'Live',
  scheduled: 'Scheduled',
  completed: 'Completed',
  paused: 'Paused',
} as const;
