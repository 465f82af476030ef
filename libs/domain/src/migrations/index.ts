import type { MigrationInterface } from 'typeorm';
import { InitialSchema1763500000000 } from './1763500000000-InitialSchema';
import { AdminInsightIndexes1795319400000 } from './1795319400000-AdminInsightIndexes';
import { SmsLocationHintAndConsentReplies1795400000000 } from './1795400000000-SmsLocationHintAndConsentReplies';
import { AdminUserRecencyIndex1795500000000 } from './1795500000000-AdminUserRecencyIndex';
import { ConversationSearchText1795600000000 } from './1795600000000-ConversationSearchText';
import { UserPhonePrefixCovering1795700000000 } from './1795700000000-UserPhonePrefixCovering';
import { DashboardCoveringIndexes1795800000000 } from './1795800000000-DashboardCoveringIndexes';
import { SpendLedger1795900000000 } from './1795900000000-SpendLedger';
import { SurveyTargeting1796050000000 } from './1796050000000-SurveyTargeting';
import { AdminSessions1796100000000 } from './1796100000000-AdminSessions';
import { AdminUserSortIndexes1796200000000 } from './1796200000000-AdminUserSortIndexes';
import { ShardedRollups1796700000000 } from './1796700000000-ShardedRollups';
import { RecordInboundFunction1796700000001 } from './1796700000001-RecordInboundFunction';
import { ReserveSpendFunction1796900000000 } from './1796900000000-ReserveSpendFunction';
import { ConversationSearchVocabulary1797000000000 } from './1797000000000-ConversationSearchVocabulary';
import { AwaitingReplies1797100000000 } from './1797100000000-AwaitingReplies';
import { MaybeOptOutConsent1797200000000 } from './1797200000000-MaybeOptOutConsent';
import { SenderLimitsAndSmsCost1797300000000 } from './1797300000000-SenderLimitsAndSmsCost';
import { GardenCalendar1797400000000 } from './1797400000000-GardenCalendar';
import { DropRedundantUserIndex1797600000000 } from './1797600000000-DropRedundantUserIndex';

export { InitialSchema1763500000000 };

// Append new migrations here, in order. The test harness hashes these class names to name its template database.
export const ALL_MIGRATIONS: Array<new () => MigrationInterface> = [
  InitialSchema1763500000000,
  AdminInsightIndexes1795319400000,
  SmsLocationHintAndConsentReplies1795400000000,
  AdminUserRecencyIndex1795500000000,
  ConversationSearchText1795600000000,
  UserPhonePrefixCovering1795700000000,
  DashboardCoveringIndexes1795800000000,
  SpendLedger1795900000000,
  SurveyTargeting1796050000000,
  AdminSessions1796100000000,
  AdminUserSortIndexes1796200000000,
  ShardedRollups1796700000000,
  RecordInboundFunction1796700000001,
  ReserveSpendFunction1796900000000,
  ConversationSearchVocabulary1797000000000,
  AwaitingReplies1797100000000,
  MaybeOptOutConsent1797200000000,
  SenderLimitsAndSmsCost1797300000000,
  GardenCalendar1797400000000,
  DropRedundantUserIndex1797600000000,
];
