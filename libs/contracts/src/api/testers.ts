import { z } from 'zod';
import type { IsoDateTime } from './common';

// What validateMessage answers: the spec's seven kinds, plus valid small talk, a bare location
// reply and a text command, which the pipeline answers without a model call.
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

export interface ValidationIssue {
  type: string;
  severity: IssueSeverity;
  message: string;
}

export interface ValidationResult {
  isValid: boolean;
  responseType: ValidationResponseType;
  /** 0 to 1. */
  confidence: number;
  issues: ValidationIssue[];
  corrections: string[];
  timestamp: IsoDateTime;
}

const message = z.string().trim().min(1, { error: 'Please enter a message.' }).max(1600);
const optionalText = z.string().trim().max(100).optional();

/** POST /api/validate-message */
export const ValidateMessageRequest = z.object({
  message,
  userContext: z
    .object({ zip_code: optionalText, region: optionalText, hardiness_zone: optionalText })
    .optional()
    .default({}),
});
export type ValidateMessageRequest = z.output<typeof ValidateMessageRequest>;

export interface ValidateMessageResponse {
  validation: ValidationResult;
  timestamp: IsoDateTime;
}

/** POST /api/process-message */
export const ProcessMessageRequest = z.object({
  message,
  userContext: z
    .object({
      region: optionalText,
      hardiness_zone: optionalText,
      soil_type: optionalText,
      experience_level: optionalText,
    })
    .optional()
    .default({}),
});
export type ProcessMessageRequest = z.output<typeof ProcessMessageRequest>;

export interface ProcessingResult {
  processing: {
    originalMessage: string;
    processedMessage: string;
    enhancements: string[];
    skipProcessing: boolean;
  };
  messageLength: number;
  wordCount: number;
  validation: ValidationResult;
}
