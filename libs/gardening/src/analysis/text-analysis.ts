import { detectLocation, type LocationDetection } from '../location/detect-location';
import { analysisWindow, normalizeText } from '../text/words';
import { detectTopics, type Topic } from './topics';

/**
 * What a gardener's text says, read once: validation, input processing, location onboarding,
 * profile learning and the advisor's reference search each take it instead of reading the text
 * again (the location alone is a few hundred regular expressions).
 */
export interface TextAnalysis {
  /** The text as given. */
  text: string;
  /** Its first ANALYSIS_MAX_CHARS characters, quotes and whitespace normalised (normalizeText). */
  normalized: string;
  lower: string;
  location: LocationDetection;
  /** Taxonomy topics, in order of appearance. */
  topics: Topic[];
}

export function analyzeText(text: string): TextAnalysis {
  const normalized = normalizeText(analysisWindow(text ?? ''));
  const lower = normalized.toLowerCase();
  return { text, normalized, lower, location: detectLocation(normalized), topics: detectTopics(lower) };
}
