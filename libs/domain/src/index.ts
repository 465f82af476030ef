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
export { findOrCreateUserByPhone, isE164, type FindOrCreateUserOptions } from './users/users';
export { consentToRecord } from './consent/consent';
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
export { inboundMoods, inboundToAnswer, lockReplyRecipient, type InboundMoods } from './messages/reply-reads';
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
