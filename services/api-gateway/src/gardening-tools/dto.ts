// Answer shapes of this capability. Location: the contract's fields plus detectLocation's details.
// Validation and processing: libs/gardening's results, whose responseType also names the kinds
// the pipeline answers without a model (conversational, location_reply, command).
import type { LocationTestResult } from '@sprout/contracts';
import type { LocationDetection, ProcessingResult, ValidationResult } from '@sprout/gardening';

/** POST /api/test-location: hasLocation, location, confidence, locationType, refusedLocation, and
 * when known zipCode, city, state, region, country, hardinessZone. */
export type LocationTestResponse = LocationTestResult & LocationDetection;

/** POST /api/validate-message */
export interface ValidateMessageResponse {
  validation: ValidationResult;
  /** When the message was validated (the same instant as validation.timestamp). */
  timestamp: string;
}

/** POST /api/process-message */
export type ProcessMessageResponse = ProcessingResult;
