import { AdminSession } from './admin-session.entity';
import { AdminUser } from './admin-user.entity';
import { AiModel } from './ai-model.entity';
import { AwaitingReply } from './awaiting-reply.entity';
import { BetaSignup } from './beta-signup.entity';
import { CalendarSend } from './calendar-send.entity';
import { ConsentEvent } from './consent-event.entity';
import { Conversation } from './conversation.entity';
import { LlmCall } from './llm-call.entity';
import { Message } from './message.entity';
import { SenderLimit } from './sender-limit.entity';
import { Setting } from './setting.entity';
import { SurveyCampaign } from './survey-campaign.entity';
import { SurveyDelivery } from './survey-delivery.entity';
import { User } from './user.entity';
import { WeatherAlert } from './weather-alert.entity';

export {
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
};

export const ALL_ENTITIES = [
  User,
  Conversation,
  Message,
  LlmCall,
  AiModel,
  BetaSignup,
  SurveyCampaign,
  SurveyDelivery,
  AdminUser,
  AdminSession,
  ConsentEvent,
  AwaitingReply,
  SenderLimit,
  Setting,
  WeatherAlert,
  CalendarSend,
];
