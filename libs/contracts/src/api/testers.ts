import { z } from 'zod';
import { answer, endpoint } from '../http/endpoint';
import { textField } from '../http/params';
import type { IsoDateTime } from './common';

// The gardening testers: the location test (public, also the public site's page), and the
// message validation and input processing testers of the admin console. Their answers are what
// libs/gardening computes, which the SMS pipeline uses too.

export const MISSING_MESSAGE = 'Please enter a message.';
export const MESSAGE_MAX_LENGTH = 1600;

/** The message to test: a missing, blank or non-text message asks for one. */
const message = textField(MISSING_MESSAGE)
  .trim()
  .min(1, { error: MISSING_MESSAGE })
  .max(MESSAGE_MAX_LENGTH, { error: `must be at most ${MESSAGE_MAX_LENGTH} characters` });

/** POST /api/test-location (public, rate-limited) and the admin location test. */
export const LocationTestRequest = z.object({ message }, { error: MISSING_MESSAGE });
export type LocationTestRequest = z.output<typeof LocationTestRequest>;

export type LocationType =
  | 'zip'
  | 'city_state'
  | 'city'
  | 'state'
  | 'region'
  | 'international'
  | 'vague'
  | 'refused'
  | 'none'
  | (string & {});

/**
 * POST /api/test-location: the five location fields, plus the place's details when known. It is
 * what libs/gardening reads from a message (its LocationDetection).
 */
export interface LocationTestResult {
  /** A usable place was found (US or abroad; see `country` and `locationType`). */
  hasLocation: boolean;
  /** Display text, e.g. "Portland, OR 97201", "Austin, TX", "Pacific Northwest", "Toronto, Canada"; null if none. */
  location: string | null;
  /** Confidence in this reading, 0 to 1. */
  confidence: number;
  locationType: LocationType | null;
  /** The person declined to give a location ("I'd rather not say"). */
  refusedLocation: boolean;
  /** The ZIP given, or a representative ZIP for a city (the city's lowest-numbered ZIP). */
  zipCode?: string;
  city?: string;
  /** Two-letter US state code. */
  state?: string;
  /** Named region ("Bay Area") for region readings. */
  region?: string;
  /** "United States" for US places, else the country named. */
  country?: string;
  /** USDA zone of the ZIP (or of the region's typical ZIP) when the zone table knows it. */
  hardinessZone?: string;
}

/**
 * How the pipeline should treat a message, as validateMessage answers. The seven kinds of the
 * validation tester are gardening_question (valid), too_short, spam, non_gardening, out_of_region,
 * safety_concern and non_english. Three more are valid but need no model: conversational ("hi",
 * "thanks": a friendly template reply), location_reply (only a location or a refusal to give one,
 * the answer to "what is your ZIP?") and command (ZIP/ZONE/SOIL/LEVEL profile commands and
 * STOP/HELP keywords).
 */
export const VALIDATION_RESPONSE_TYPES = [
  'gardening_question',
  'conversational',
  'location_reply',
  'command',
  'too_short',
  'spam',
  'non_gardening',
  'out_of_region',
  'safety_concern',
  'non_english',
] as const;
export type ValidationResponseType = (typeof VALIDATION_RESPONSE_TYPES)[number];

export type IssueSeverity = 'low' | 'medium' | 'high';

/** One finding about a message. */
export interface ValidationIssue {
  type: string;
  severity: IssueSeverity;
  message: string;
}

/** The validation result (libs/gardening's ValidationResult names the safety and small-talk kinds). */
export interface ValidationResult {
  isValid: boolean;
  responseType: ValidationResponseType;
  /** Confidence in the classification, 0 to 1. */
  confidence: number;
  issues: ValidationIssue[];
  /** Suggestions for the sender. */
  corrections: string[];
  /** When it was validated. */
  timestamp: IsoDateTime;
  /** For safety_concern: the guidance SMS (Poison Control 1-800-222-1222, 911). */
  safetyGuidance?: string;
  /** For safety_concern: self_harm, pet_poisoning, pesticide_misuse, ... */
  safetyCategory?: string;
  /** For non_english: the detected ISO 639-1 language code. */
  language?: string;
  /** For conversational messages: greeting, thanks, acknowledgement, goodbye or about. */
  conversation?: string;
  /** For out_of_region: the place named. */
  outOfRegionPlace?: string;
}

const optionalText = textField('must be text')
  .trim()
  .max(100, { error: 'must be at most 100 characters' })
  .optional();

/** POST /api/validate-message */
export const ValidateMessageRequest = z.object(
  {
    message,
    userContext: z
      .object(
        { zip_code: optionalText, region: optionalText, hardiness_zone: optionalText },
        { error: 'must be an object' },
      )
      .optional()
      .default({}),
  },
  { error: MISSING_MESSAGE },
);
export type ValidateMessageRequest = z.output<typeof ValidateMessageRequest>;

export interface ValidateMessageResponse {
  validation: ValidationResult;
  timestamp: IsoDateTime;
}

/** POST /api/process-message */
export const ProcessMessageRequest = z.object(
  {
    message,
    userContext: z
      .object(
        {
          region: optionalText,
          hardiness_zone: optionalText,
          soil_type: optionalText,
          experience_level: optionalText,
        },
        { error: 'must be an object' },
      )
      .optional()
      .default({}),
  },
  { error: MISSING_MESSAGE },
);
export type ProcessMessageRequest = z.output<typeof ProcessMessageRequest>;

/** What processMessage answers: the message with its context added, and its validation. */
export interface ProcessingResult {
  processing: {
    originalMessage: string;
    /** The message with a bracketed context suffix (unchanged when processing is skipped). */
    processedMessage: string;
    /** One line per context item added. */
    enhancements: string[];
    skipProcessing: boolean;
  };
  messageLength: number;
  wordCount: number;
  validation: ValidationResult;
}

export const testersApi = {
  location: endpoint({
    method: 'POST',
    path: '/api/test-location',
    access: 'public',
    tag: 'gardening tools',
    summary: 'Detect the location in a message (public, rate-limited per client IP)',
    body: LocationTestRequest,
    answer: answer<LocationTestResult>('What location the message gives, if any'),
  }),
  validate: endpoint({
    method: 'POST',
    path: '/api/validate-message',
    access: 'admin',
    tag: 'gardening tools',
    summary: 'Classify a message as the SMS pipeline would (message validation tester)',
    body: ValidateMessageRequest,
    answer: answer<ValidateMessageResponse>('The validation and when it was made'),
  }),
  process: endpoint({
    method: 'POST',
    path: '/api/process-message',
    access: 'admin',
    tag: 'gardening tools',
    summary: 'Add the sender context to a message as the SMS pipeline would (input processing tester)',
    body: ProcessMessageRequest,
    answer: answer<ProcessingResult>('The processed message, its length and word count, and its validation'),
  }),
} as const;
