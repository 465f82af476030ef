import { api, endpointKey, endpointPath } from '@sprout/contracts';
import type { ConversationListQuery } from './api/conversations';
import type { UserListQuery, UserStatsQuery } from './api/users';

// Every query of the admin console, in one place, derived from the endpoint table: the first
// element is the path (spec 000 §7), the second the query the answer depends on.
export const QueryKeys = {
  authStatus: endpointKey(api.auth.status),
  dashboardMetrics: (showTestData: boolean) =>
    endpointKey(api.dashboard.metrics, { query: { showTestData } }),
  /** The dashboard metrics in either Test Data Mode, for invalidation. */
  allDashboardMetrics: [endpointPath(api.dashboard.metrics)] as const,
  betaSignups: endpointKey(api.waitlist.list),
  userStats: (query: UserStatsQuery) => endpointKey(api.users.stats, { query }),
  users: (query: UserListQuery) => endpointKey(api.users.list, { query }),
  userDetail: (id: string) => endpointKey(api.users.detail, { params: { id } }),
  senderLimits: endpointKey(api.users.senderLimits),
  /** Every conversation list (user panel and Messages pages), for invalidation. */
  allConversations: [endpointPath(api.conversations.list)] as const,
  conversations: (query: ConversationListQuery) => endpointKey(api.conversations.list, { query }),
  conversationMessages: (id: string, showTestData: boolean) =>
    endpointKey(api.conversations.messages, { params: { id }, query: { showTestData } }),
  /** A conversation's messages in either Test Data Mode, for invalidation. */
  allConversationMessages: (id: string) => [endpointPath(api.conversations.messages, { id })] as const,
  messageStats: (showTestData: boolean) =>
    endpointKey(api.conversations.messageStats, { query: { showTestData } }),
  testUsers: endpointKey(api.simulator.testUsers),
  simulatorConversation: (userId: string) =>
    endpointKey(api.simulator.conversation, { params: { id: userId } }),
  allModels: endpointKey(api.models.all),
  /** Model usage, today's spend and the limit; by Test Data Mode (usage is real or test users'). */
  allModelStats: [endpointPath(api.models.stats)] as const,
  modelStats: (showTestData: boolean) => endpointKey(api.models.stats, { query: { showTestData } }),
  openAiModels: endpointKey(api.models.openAiModels),
  imageMessages: endpointKey(api.images.messages),
  imageStats: endpointKey(api.images.stats),
  surveyCampaigns: endpointKey(api.surveys.list),
  surveyDeliveries: (campaignId: string) =>
    endpointKey(api.surveys.deliveries, { params: { id: campaignId } }),
  adminMetrics: endpointKey(api.monitoring.adminMetrics),
  recentMessages: endpointKey(api.monitoring.recentMessages),
  apiUsage: endpointKey(api.monitoring.apiUsage),
  conversationQuality: endpointKey(api.monitoring.conversationQuality),
  serviceHealth: endpointKey(api.monitoring.serviceHealth),
  proactiveSystemHealth: endpointKey(api.monitoring.proactiveSystemHealth),
  predictions: endpointKey(api.monitoring.predictions),
  trends: endpointKey(api.monitoring.trends),
  fallbackReport: endpointKey(api.monitoring.fallback),
  queues: endpointKey(api.monitoring.queues),
};
