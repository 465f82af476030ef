/** What the detector should read from an example: a place, a vague non-place, a refusal or nothing. */
export type LocationExampleKind = 'valid' | 'vague' | 'refusal' | 'none';

export interface LocationTestExample {
  label: string;
  kind: LocationExampleKind;
  message: string;
}

/** The eight example messages of the location test. */
export const LOCATION_TEST_EXAMPLES: readonly LocationTestExample[] = [
  { label: 'ZIP code', kind: 'valid', message: "I'm in 97214 and my tomatoes are wilting" },
  { label: 'City and state', kind: 'valid', message: 'What should I plant in Portland, Oregon this month?' },
  { label: 'Region', kind: 'valid', message: 'Growing peppers in the Pacific Northwest' },
  { label: 'Near the coast', kind: 'vague', message: 'I live near the coast' },
  { label: 'Up north', kind: 'vague', message: 'Somewhere up north where it gets cold' },
  { label: 'By the river', kind: 'vague', message: "I'm over by the river" },
  { label: 'Declines to share', kind: 'refusal', message: "I'd rather not say where I live" },
  { label: 'Plant question', kind: 'none', message: 'How often should I water my basil?' },
];

export const LOCATION_EXAMPLE_KIND_LABELS: Record<LocationExampleKind, string> = {
  valid: 'Valid',
  vague: 'Vague',
  refusal: 'Refusal',
  none: 'No location',
};

/** Confidence travels as 0 to 1 and shows as a whole percent ('95%'). */
export function formatConfidence(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

/** The inline error text of the location test. */
export function locationTestErrorText(error: Error): string {
  return `Error testing location: ${error.message}`;
}
