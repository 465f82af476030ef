// Postgres schema (TypeORM entities + migrations) and the small queries several services share.
import 'reflect-metadata';

export * from './types';
export { numericTransformer } from './transformers';
export * from './entities';
export { ALL_MIGRATIONS, InitialSchema1763500000000 } from './migrations';
export {
  buildDataSourceOptions,
  createDataSource,
  runMigrations,
  MIGRATION_ADVISORY_LOCK_KEY,
  type DataSourceConfig,
} from './data-source';
export { findOrCreateUserByPhone, isE164, type FindOrCreateUserOptions } from './users/users';
export { consentToRecord, type TipsConsentOptions } from './consent/consent';
export {
  touchConversation,
  DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS,
  type ConversationOwner,
} from './conversations/conversations';
export {
  recordInbound,
  recordOutbound,
  type ConversationChanges,
  type InboundConsent,
  type InboundMessageInput,
  type InboundRecord,
  type InboundSender,
  type OutboundMessageInput,
  type OutboundRecord,
  type UserChanges,
} from './messages/message-writer';
export { getSetting, setSetting, SPENDING_LIMIT_SETTING, DEFAULT_SPENDING_LIMIT } from './settings/settings';
export { MODEL_CATALOG_CHANNEL } from './models/models';
export { isTimeZone, spendDay, type SpendDay } from './ledger/spend-day';
export {
  readSpendingLimit,
  readSpendSnapshot,
  spentSince,
  type LedgerCall,
  type ReserveOutcome,
  type SpendReservation,
  type SpendSnapshot,
  type UnpaidCall,
} from './ledger/statements';
export {
  SpendLedger,
  type PaidCallRequest,
  type SpendLedgerOptions,
  type SpendSignals,
  type SpendThreshold,
} from './ledger/spend-ledger';
export { schemaCode, schemaCodeFiles } from './schema-code';
export { replyIdFor, replyIdSql } from './messages/reply-id';
export {
  awaitingRepliesBetween,
  claimAwaitingReplyAttempt,
  expireAwaitingReplies,
  settleAwaitingReply,
  type AwaitingReplyRow,
} from './awaiting-replies/awaiting-replies';
export { recordSmsSent, smsSpentSince, type SmsSent, type SmsSentRecord } from './sms-spend/sms-spend';
export {
  recordSenderRefusal,
  senderLimitsEndingAfter,
  type SenderLimitRefusal,
  type SenderLimitRow,
  type SenderLimitStretch,
} from './sender-limits/sender-limits';
// images
export { messageById, updateMessageImage, type ImageOutcome } from './images/image-analysis';
// models
export { imageModelRow } from './models/image-model';
// surveys
export {
  applyDueCampaignStatuses,
  lifecycleCampaignCount,
  liveCampaignIds,
  targetCampaignBatch,
  type CampaignStatusChange,
  type TargetingBatch,
} from './surveys/campaign-lifecycle';
// monitoring
export { newestReplyTier, pingDatabase, type ReplyTierRow } from './monitoring/health-checks';
export {
  modelCallBuckets,
  outboundMessageBuckets,
  recentModelSpend,
  type BucketWindow,
  type OperationBucketRow,
  type RecentSpend,
} from './monitoring/predictions';
// shared statement helpers
export { queryPrepared } from './prepared-query';
export { isoJson, type JsonText } from './sql';
// auth
export {
  adminUserByUsername,
  insertAdminUserIfAbsent,
  recordAdminLogin,
  setAdminPasswordHash,
} from './auth/admin-users';
export {
  adminSessionByTokenHash,
  deleteAdminSession,
  deleteExpiredAdminSessions,
  extendAdminSession,
  insertAdminSession,
  type AdminSessionRow,
  type NewAdminSession,
} from './auth/admin-sessions';
export { openCursor, type RowCursor, type Statement } from './cursor';
// users
export { TRIGRAM_MIN_LENGTH, escapeLike, phonePattern, type PhonePattern } from './users/search-patterns';
export {
  USER_SORTS,
  encodeUserCursor,
  keyTextSql,
  profileText,
  type SortOrder,
  type UserCursor,
  type UserSortDefinition,
  type UserSortKeyType,
  type UserSortName,
} from './users/user-sorts';
export {
  userDetailJson,
  userDetailStatement,
  userExists,
  userIdsMatchingPhone,
  userOverview,
  userPage,
  userPageStatement,
  usersTotal,
  type UserOverviewRow,
  type UserPageAfter,
  type UserPageRow,
  type UserPageSource,
} from './users/user-list';
export { usersExportStatement, type UsersExportScope } from './users/users-export';
// conversations
export {
  conversationsExportStatement,
  userConversationsExportStatement,
  type ConversationsExportScope,
} from './conversations/conversations-export';
export {
  CONVERSATION_MESSAGES_LIMIT,
  PHONE_USERS_CAP,
  SEARCH_EXACT_COUNT_BELOW,
  SHORT_SEARCH_SCAN,
  WORD_INDEX_BELOW,
  WORD_VOCABULARY_CAP,
  conversationListPage,
  conversationMessagesJson,
  parseCursor,
  type ConversationListOptions,
  type ConversationListPage,
  type ConversationListRow,
  type ListCursor,
} from './conversations/conversation-list';
// monitoring
export { messageStats, type MessageStatsRow, type MessageStatsWindows } from './monitoring/message-stats';
export { dashboardMetrics, type DashboardMetricsRow } from './monitoring/dashboard';
export {
  apiUsage,
  conversationQualityFigures,
  fallbackFigures,
  newestAnsweredReply,
  recentMonitoringMessages,
  type ApiUsageRows,
  type ApiUsageTotalsRow,
  type FallbackRows,
  type MonitoringMessageRow,
  type QualityThresholds,
} from './monitoring/monitoring-figures';
export { conversationExists } from './conversations/conversation-list';
// images
export {
  imageProcessingError,
  imageStats,
  recentImageMessages,
  type ImageMessageRow,
  type ImageStatsRow,
} from './images/image-messages';
// waitlist
export {
  approveBetaSignup,
  betaSignupEmailTaken,
  insertBetaSignup,
  latestBetaSignups,
  type BetaSignupRow,
} from './waitlist/beta-signups';
// users: the simulator's test users
export {
  SIMULATOR_MESSAGE_COLUMNS,
  deleteTestUser,
  freeTestUserPhone,
  insertTestUser,
  newestUserMessages,
  testUserById,
  testUsers,
  userIsTestUser,
  userMessageTotals,
  userProfile,
  type SimulatorMessageRow,
  type TestUserModelUsageRow,
  type TestUserRow,
  type TestUserTotalsRow,
  type UserProfileRow,
} from './users/test-users';
// surveys
export {
  createSurveyCampaign,
  moveSurveyCampaign,
  setSurveyCampaignUrl,
  surveyCampaignDeliveries,
  surveyCampaignStatus,
  surveyCampaignTargetTotal,
  surveyCampaigns,
  type CampaignRow,
  type NewCampaign,
  type SurveyDeliveryRow,
} from './surveys/campaigns';
// models
export {
  clearFallbackModel,
  insertModel,
  liveModel,
  lockModelCatalog,
  modelById,
  modelByName,
  modelUsageSince,
  replyTokenMix,
  setModelFields,
  updateModel,
  visibleModels,
  type ModelFields,
  type ModelUsageRow,
  type ReplyTokenMixRow,
} from './models/model-management';
// consent
export { isOptOutConfirmation, recordCarrierOptOut } from './consent/carrier-opt-out';
// messages
export {
  UNSENT_STATUSES,
  messageToSend,
  recordSendFailure,
  updateUnsent,
  type SendFailure,
} from './messages/sending';
export {
  markStatusesRead,
  outboundBySid,
  sentOfConversation,
  staleSentMessages,
  updateStatusIfStill,
  updateStatusLocked,
  type StaleStatusQuery,
} from './messages/delivery-status';
export { outboundBySids, updateStatusesIfStill, type StatusWrite } from './messages/status-batch';
export { inboundToAnswer, lockReplyRecipient, type InboundMoods } from './messages/reply-reads';
export {
  recordReply,
  type PlannedReply,
  type ReplyRecordOutcome,
  type ReplyRequest,
  type ReplyState,
} from './messages/reply';
// conversations
export { conversationHistory, type HistoryRow } from './conversations/history';
export {
  conversationById,
  conversationTranscript,
  writeConversationSummary,
  type ConversationSummary,
  type TranscriptRow,
} from './conversations/summary';
// users
export { userById } from './users/users';
// models
export { allAiModels } from './models/model-rows';
// surveys
export { claimDueSurvey, markSurveyDelivered, type DueSurvey } from './surveys/reply-surveys';
export { simulatorReply, type SimulatorReplyRow } from './messages/simulator-messages';
export type { Db } from './db';
// garden calendar
export * from './garden-calendar';
export { gardenCalendarCounts, type GardenCalendarCounts } from './garden-calendar/admin-summary';
export {
  gardenCalendarSubscribers,
  type GardenCalendarSubscriberRow,
} from './garden-calendar/admin-subscribers';
export {
  recentCalendarSends,
  recentWeatherAlerts,
  scheduledSendsByDay,
  type CalendarSendRow,
  type ScheduledDayRow,
  type WeatherAlertRow,
} from './garden-calendar/admin-activity';
