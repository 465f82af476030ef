// The texts of the Users screen.

export const usersTexts = {
  loadingStats: 'Loading...',
  statsFailed: 'Failed to fetch user stats',
  loadingUsers: 'Loading users...',
  usersFailed: 'Failed to fetch users',
  noUsersTitle: 'No Users Found',
  noSearchMatch: 'No users match your search criteria.',
  noUsersYet: 'No users have registered yet.',
  loadingDetail: 'Loading user details...',
  detailFailed: 'Failed to load user details',
  noProfileData: 'No profile data available',
  noRecentActivity: 'No recent activity',
  ongoing: 'Ongoing',
  noConversations: 'No conversations yet',
  searchPlaceholder: 'Search by phone number...',
} as const;
