import { Injectable } from '@nestjs/common';
import { type TextAnalysis, type ValidationResponseType, isLocationRefusal } from '@sprout/gardening';
import {
  type KnownLocation,
  type LocationHint,
  type LocationPatch,
  REFUSAL_ACKNOWLEDGEMENT,
  ZIP_QUESTION,
  locationConfirmation,
  locationOfDetection,
  locationOfHint,
  mergeLocation,
} from './location-rules';

/** What one message says about where the gardener is. */
export interface LocationReading {
  /** The location the message (or, failing that, Twilio's hint) gives. */
  found: LocationPatch | null;
  /** The message is only a location or a refusal (the answer to "what is your ZIP?"). */
  explicit: boolean;
  /** The message declines to give a location. */
  refused: boolean;
}

/** What is known about the gardener's location before this message. */
export interface LocationKnowledge extends KnownLocation {
  locationRefused: boolean;
}

export interface OnboardingState {
  zipCode: string | null;
  locationRefused: boolean;
  locationAskedAt: Date | null;
}

/**
 * Location onboarding: read a ZIP, a city and state or a region from the
 * message while the user has no ZIP (or whenever the message is only a location), seed it from
 * Twilio's hint, ask for a ZIP once, and respect a refusal.
 */
@Injectable()
export class LocationService {
  /**
   * Reads the message; Twilio's hint (where the carrier places the number) seeds a user with no ZIP
   * when the message gives no location, unless they declined to give one.
   */
  read(
    analysis: TextAnalysis,
    known: LocationKnowledge,
    responseType: ValidationResponseType,
    hint: LocationHint | null,
  ): LocationReading {
    const explicit = responseType === 'location_reply';
    const detection = analysis.location;
    const refused = detection.refusedLocation || (explicit && isLocationRefusal(analysis.text));
    const fromMessage = locationOfDetection(detection);
    const hintAllowed = hint !== null && known.zipCode === null && !known.locationRefused && !refused;
    const found = fromMessage ?? (hintAllowed ? locationOfHint(hint) : null);
    return { found, explicit, refused };
  }

  /** The columns to store. A known ZIP is only replaced by a message that is just a new location. */
  patchFor(known: KnownLocation, reading: LocationReading): LocationPatch {
    if (reading.found === null) return {};
    if (known.zipCode !== null && !reading.explicit) return {};
    if (known.zipCode !== null && !reading.found.zipCode) return {};
    return mergeLocation(known, reading.found);
  }

  /** The whole reply to a message that was only a location or a refusal; null otherwise. */
  replyFor(reading: LocationReading, after: KnownLocation): string | null {
    if (!reading.explicit) return null;
    if (reading.found !== null) return locationConfirmation(after);
    if (reading.refused) return REFUSAL_ACKNOWLEDGEMENT;
    return null;
  }

  /** Ask for a ZIP at the end of an answer: only while none is known, once, and never after a refusal. */
  shouldAsk(state: OnboardingState): boolean {
    return state.zipCode === null && !state.locationRefused && state.locationAskedAt === null;
  }

  get question(): string {
    return ZIP_QUESTION;
  }
}
