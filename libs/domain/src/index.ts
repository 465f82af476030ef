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
  ConsentEvent,
  Conversation,
  LlmCall,
  Message,
  SenderLimit,
  Setting,
  SurveyCampaign,
  SurveyDelivery,
  User,
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
export {
  isTimeZone,
  readSpendingLimit,
  readSpendSnapshot,
  releaseSpend,
  reserveSpend,
  settleSpend,
  spendDay,
  spentSince,
  type ReserveOutcome,
  type SettledCall,
  type SpendDay,
  type SpendReservation,
  type SpendSnapshot,
} from './queries/spending';
export { replyIdFor } from './messages/reply-id';
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
