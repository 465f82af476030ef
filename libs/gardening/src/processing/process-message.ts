import type { ProcessingResult as ProcessingAnswer } from '@sprout/contracts';
import { frostDatesFor, normalizeZone } from '../places/frost';
import { hardinessZoneForZip } from '../places/hardiness';
import { localSeasonFor } from '../places/season';
import { regionForState } from '../places/states';
import { lookupZip } from '../places/zip';
import { formatMonthDay } from '../text/dates';
import type { TextAnalysis } from '../analysis/text-analysis';
import { normalizeText, wordCount } from '../text/words';
import { validateMessage, type ValidationResult } from '../validation/validate-message';
import {
  isServiceKeyword,
  normalizeExperienceLevel,
  normalizeSoilType,
  parseProfileCommand,
} from './profile-commands';

/** What the input processor knows about the sender (spec 001 userContext of process-message). */
export interface ProcessingContext {
  /** A region name, or a ZIP (the tester's "region or ZIP" field). */
  region?: string | null;
  zip_code?: string | null;
  hardiness_zone?: string | null;
  soil_type?: string | null;
  experience_level?: string | null;
  /** The sender's earlier messages in this conversation, oldest first (see ValidationUserContext). */
  conversation?: readonly string[] | null;
}

/** The processing result (the tester's answer), its validation with the gardening kinds named. */
export interface ProcessingResult extends ProcessingAnswer {
  validation: ValidationResult;
}

/** Response types that are answered without a model, so context would be wasted on them. */
const SKIPPED_TYPES = new Set<ValidationResult['responseType']>([
  'command',
  'conversational',
  'too_short',
  'location_reply',
]);

/** The context's ZIP (its region field may hold one, as the tester's "region or ZIP" does) and region name. */
const placeOf = (context: ProcessingContext): { zipInput: string; regionName: string } => {
  const regionInput = context.region?.trim() ?? '';
  const zipInput = context.zip_code?.trim() || (/^\d{5}(?:-\d{4})?$/.test(regionInput) ? regionInput : '');
  return { zipInput, regionName: zipInput && zipInput === regionInput ? '' : regionInput };
};

/**
 * The validation `processMessage` starts with: it reads the location and the conversation, never
 * the profile. Takes the text or its analysis (analyzeText).
 */
export function validateInContext(
  text: string | TextAnalysis,
  context: ProcessingContext = {},
  now: Date = new Date(),
): ValidationResult {
  const { zipInput, regionName } = placeOf(context);
  return validateMessage(
    text ?? '',
    {
      zip_code: zipInput || null,
      region: regionName || null,
      hardiness_zone: context.hardiness_zone ?? null,
      conversation: context.conversation ?? null,
    },
    now,
  );
}

/**
 * Prepares an inbound message for the model (spec 001 "input processing"): validates it (unless
 * `validated` gives its validation) and, for a question worth answering, appends a bracketed context suffix with the location (a ZIP also gives
 * city, state, region and, when no zone is given, its USDA zone), the hardiness zone with its
 * approximate frost dates (an Alaska ZIP's own), the season at `now` (wet or dry in the tropics),
 * the soil type and the experience level.
 * Profile commands (ZIP 98101, ZONE 7b...), SMS keywords (STOP, HELP...), very short texts, small
 * talk and invalid messages skip processing. Takes the text, or its analysis (analyzeText).
 */
export function processMessage(
  text: string | TextAnalysis,
  context: ProcessingContext = {},
  now: Date = new Date(),
  /** This text's validation under the same location and conversation, when already known (not read again). */
  validated?: ValidationResult,
): ProcessingResult {
  const analysis = typeof text === 'string' ? null : text;
  const original = analysis?.text ?? (text as string | null) ?? '';
  const normalized = normalizeText(original);
  const words = wordCount(original);
  const { zipInput, regionName } = placeOf(context);
  const validation = validated ?? validateInContext(analysis ?? original, context, now);

  const skip =
    normalized === '' ||
    words < 2 ||
    normalized.length < 8 ||
    isServiceKeyword(normalized) ||
    parseProfileCommand(normalized) !== null ||
    SKIPPED_TYPES.has(validation.responseType) ||
    !validation.isValid;

  const enhancements: string[] = [];
  const parts: string[] = [];
  if (!skip) {
    const place = zipInput ? lookupZip(zipInput) : null;
    if (zipInput) {
      const zip = zipInput.slice(0, 5);
      parts.push(`Location: ${place ? `${place.city}, ${place.state} ` : ''}${zip}`);
      enhancements.push(`Added location: ZIP ${zip}${place ? ` (${place.city}, ${place.state})` : ''}`);
    }
    const region = regionName || (place ? regionForState(place.state) : null);
    if (region) {
      parts.push(`Region: ${region}`);
      enhancements.push(`Added region: ${region}${regionName ? '' : ' (from ZIP)'}`);
    }
    const givenZone = context.hardiness_zone ? normalizeZone(context.hardiness_zone) : null;
    const zone = givenZone ?? (zipInput ? (hardinessZoneForZip(zipInput)?.zone ?? null) : null);
    if (zone) {
      parts.push(`USDA zone: ${zone}`);
      enhancements.push(`Added hardiness zone: ${zone}${givenZone ? '' : ' (from ZIP)'}`);
    }
    // The ZIP's own dates where a zone misleads (Alaska), else the zone's.
    const frost = frostDatesFor({ zipCode: zipInput || null, zone });
    if (frost) {
      const frostText =
        frost.lastSpringFrost === 'frost-free'
          ? 'frost-free'
          : `last spring ~${formatMonthDay(frost.lastSpringFrost)}, first fall ~${formatMonthDay(frost.firstFallFrost)}`;
      parts.push(`Frost: ${frostText}`);
      enhancements.push(`Added frost dates: ${frostText}`);
    }
    const season = localSeasonFor(now, place);
    parts.push(`Season: ${season}`);
    enhancements.push(`Added season: ${season}`);
    const soil = context.soil_type ? (normalizeSoilType(context.soil_type) ?? context.soil_type.trim()) : '';
    if (soil) {
      parts.push(`Soil: ${soil}`);
      enhancements.push(`Added soil type: ${soil}`);
    }
    const level = context.experience_level
      ? (normalizeExperienceLevel(context.experience_level) ?? context.experience_level.trim())
      : '';
    if (level) {
      parts.push(`Experience: ${level}`);
      enhancements.push(`Added experience level: ${level}`);
    }
  }

  return {
    processing: {
      originalMessage: original,
      processedMessage:
        skip || parts.length === 0 ? original : `${original.trim()} [Context: ${parts.join('; ')}]`,
      enhancements,
      skipProcessing: skip,
    },
    messageLength: original.length,
    wordCount: words,
    validation,
  };
}
