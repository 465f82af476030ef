// Every query of the admin console, in one place. The first element is the URL (spec 000 §7);
// the rest are the parameters the answer depends on.
export const QueryKeys = {
  authStatus: ['/api/admin/auth-status'] as const,
  dashboardMetrics: (showTestData: boolean) => ['/api/dashboard/metrics', { showTestData }] as const,
  betaSignups: ['/api/admin/beta-signups'] as const,
  userStats: (showTestUsers: boolean) => ['/api/admin/users/stats/overview', { showTestUsers }] as const,
  users: (search: string, showTestUsers: boolean) => ['/api/admin/users', { search, showTestUsers }] as const,
  userDetail: (id: string) => [`/api/admin/users/${id}`] as const,
  userConversations: (userId: string) =>
    ['/api/admin/conversations', { userId, showTestData: false }] as const,
  /** Every conversation list (user panel and Messages pages), for invalidation. */
  allConversations: ['/api/admin/conversations'] as const,
  conversations: (page: number, search: string, showTestData: boolean) =>
    ['/api/admin/conversations', { page, search, showTestData }] as const,
  conversationMessages: (conversationId: string, showTestData: boolean) =>
    [`/api/admin/conversations/${conversationId}/messages`, { showTestData }] as const,
  messageStats: (showTestData: boolean) => ['/api/admin/messages/stats', { showTestData }] as const,
  testUsers: ['/api/simulator/test-users'] as const,
  simulatorConversation: (userId: string) => [`/api/simulator/user/${userId}/conversation`] as const,
  allModels: ['/api/admin/models/all'] as const,
};
