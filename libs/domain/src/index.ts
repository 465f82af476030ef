// Postgres schema (TypeORM entities + migrations) and the small queries several services share.
import 'reflect-metadata';

export * from './types';
export { numericTransformer } from './transformers';
export {
  ALL_ENTITIES,
  AdminSession,
  AdminUser,
  AiModel,
  AwaitingReply,
  BetaSignup,
  CalendarSend,
  ConsentEvent,
  Conversation,
  LlmCall,
  Message,
  SenderLimit,
  Setting,
  SurveyCampaign,
  SurveyDelivery,
  User,
  WeatherAlert,
} from './entities';
export { ALL_MIGRATIONS, InitialSchema1763500000000 } from './migrations';
export {
  buildDataSourceOptions,
  createDataSource,
  runMigrations,
  MIGRATION_ADVISORY_LOCK_KEY,
  type DataSourceConfig,
} from './data-source';
export { findOrCreateUserByPhone, isE164, type FindOrCreateUserOptions } from './queries/users';
export { consentToRecord, type TipsConsentOptions } from './queries/consent';
export {
  touchConversation,
  DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS,
  type ConversationOwner,
} from './queries/conversations';
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
export { getSetting, setSetting, SPENDING_LIMIT_SETTING, DEFAULT_SPENDING_LIMIT } from './queries/settings';
export { MODEL_CATALOG_CHANNEL } from './queries/models';
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
} from './queries/awaiting-replies';
export { recordSmsSent, smsSpentSince, type SmsSent, type SmsSentRecord } from './queries/sms-spend';
export {
  recordSenderRefusal,
  senderLimitsEndingAfter,
  type SenderLimitRefusal,
  type SenderLimitRow,
  type SenderLimitStretch,
} from './queries/sender-limits';
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
