// Value sets stored as varchar columns (guarded by CHECK constraints in the migration).

export const MESSAGE_DIRECTIONS = ['inbound', 'outbound'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

export const MESSAGE_STATUSES = [
  'received',
  'queued',
  'accepted',
  'sending',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'pending',
  'read',
  'receiving',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const MESSAGE_KINDS = [
  'reply',
  'consent',
  'onboarding',
  'validation',
  'survey',
  'command',
  'system',
  'calendar',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** The queues an awaiting_replies row can be owed by: a reply (sms.inbound) or a keyword's confirmation (sms.outbound). */
export const AWAITING_REPLY_QUEUES = ['sms.inbound', 'sms.outbound'] as const;
export type AwaitingReplyQueue = (typeof AWAITING_REPLY_QUEUES)[number];

/** The windows a sender's replies are counted in (ai-responder's per-sender limits). */
export const SENDER_LIMIT_WINDOWS = ['minute', 'hour', 'day'] as const;
export type SenderLimitWindow = (typeof SENDER_LIMIT_WINDOWS)[number];

export const MESSAGE_ENCODINGS = ['GSM-7', 'UCS-2'] as const;
export type MessageEncoding = (typeof MESSAGE_ENCODINGS)[number];

export const SENTIMENTS = ['positive', 'negative', 'frustrated', 'neutral'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

export const LLM_TIERS = ['primary', 'fallback', 'template', 'minimal'] as const;
export type LlmTier = (typeof LLM_TIERS)[number];

export const LLM_PURPOSES = ['reply', 'summary', 'image', 'classification'] as const;
export type LlmPurpose = (typeof LLM_PURPOSES)[number];

export const CAMPAIGN_STATUSES = ['live', 'scheduled', 'completed', 'paused'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * maybe_opt_out: a text that may have asked to stop, answered by asking for STOP; it changes nothing.
 * tips_opt_in / tips_opt_out: TIPS and TIPS OFF (garden calendar tips only; conversations go on);
 * tips_decline: "no" right after the one-time offer of tips.
 */
export const CONSENT_EVENT_TYPES = [
  'opt_out',
  'opt_in',
  'help',
  'maybe_opt_out',
  'tips_opt_in',
  'tips_opt_out',
  'tips_decline',
] as const;
export type ConsentEventType = (typeof CONSENT_EVENT_TYPES)[number];

/** Where a user stands with garden calendar tips (users.tips_status). */
export const TIPS_STATUSES = ['none', 'offered', 'subscribed', 'declined', 'unsubscribed'] as const;
export type TipsStatus = (typeof TIPS_STATUSES)[number];

/** What a calendar send is: a dated tip, or a text about a forecast freeze or heat extreme. */
export const CALENDAR_SEND_KINDS = ['tip', 'frost_alert', 'heat_alert'] as const;
export type CalendarSendKind = (typeof CALENDAR_SEND_KINDS)[number];

export const CALENDAR_SEND_STATUSES = ['scheduled', 'sent', 'skipped', 'cancelled'] as const;
export type CalendarSendStatus = (typeof CALENDAR_SEND_STATUSES)[number];

export const WEATHER_ALERT_KINDS = ['freeze', 'heat'] as const;
export type WeatherAlertKind = (typeof WEATHER_ALERT_KINDS)[number];

export const CONSENT_SOURCES = ['sms', 'web', 'provider'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

/** Beta signups start as 'pending'; other values (e.g. 'approved') are free-form. */
export type BetaSignupStatus = 'pending' | 'approved' | (string & {});

export interface UserProfile {
  region?: string;
  growingContext?: string;
  preferences?: string[];
  conversationStyle?: string;
  experienceLevel?: string;
  soilType?: string;
}

export interface MessageMedia {
  url: string;
  contentType: string;
  /**
   * 'admin': typed in the console (image test, simulator), fetched from any public host; absent:
   * an MMS's Twilio media URL, fetched from Twilio's media hosts only.
   */
  source?: 'admin';
}

/**
 * Where the carrier places the sender's number (Twilio's FromZip, FromCity, FromState,
 * FromCountry on an inbound SMS). A hint only: it describes the number, not where the person
 * gardens; fields Twilio left empty are absent.
 */
export interface MessageLocationHint {
  zip?: string;
  city?: string;
  state?: string;
  country?: string;
}
