// Texts, examples and defaults of the message testers.

export interface TesterExample {
  label: string;
  message: string;
}

/** The seven examples of the message validation tester, one per kind the validator tells apart. */
export const VALIDATION_EXAMPLES: readonly TesterExample[] = [
  { label: 'Valid gardening question', message: 'When should I plant tomatoes in Portland, OR?' },
  { label: 'Too short', message: 'tomato?' },
  { label: 'Spam', message: 'CLICK HERE for FREE money!!! www.win-cash.biz' },
  { label: 'Non-gardening', message: 'Who won the football game last night?' },
  { label: 'Out of region', message: 'What can I grow in my garden in Toronto, Canada?' },
  { label: 'Safety concern', message: 'My dog ate some mushrooms from the yard, what should I do?' },
  { label: 'Non-English', message: '¿Cuándo debo plantar tomates en mi jardín?' },
];

/** The six examples of the input processing tester: questions that get context and texts that skip it. */
export const PROCESSING_EXAMPLES: readonly TesterExample[] = [
  { label: 'Planting time', message: 'When should I plant tomatoes?' },
  { label: 'Pest problem', message: 'Something is eating holes in my lettuce leaves' },
  { label: 'Soil care', message: 'How do I improve drainage in my garden soil?' },
  { label: 'Seasonal planning', message: 'What cover crop should I sow this winter?' },
  { label: 'Profile command', message: 'ZIP 97214' },
  { label: 'Small talk', message: 'thanks!' },
];

/** The input processing tester's context defaults. */
export const PROCESSING_CONTEXT_DEFAULTS = {
  region: '94117',
  hardiness_zone: '10a',
  soil_type: 'clay',
  experience_level: 'beginner',
} as const;

export const testerTexts = {
  validationError: (error: Error) => `Error validating message: ${error.message}`,
  processingErrorTitle: 'Processing Error',
} as const;

/** The server accepts messages up to this length and context values up to CONTEXT_MAX_LENGTH. */
export const MESSAGE_MAX_LENGTH = 1600;
export const CONTEXT_MAX_LENGTH = 100;

/** Characters and words of a message as typed (words are runs of non-space). */
export function messageStats(message: string): { length: number; words: number } {
  const trimmed = message.trim();
  return { length: message.length, words: trimmed ? trimmed.split(/\s+/).length : 0 };
}

/** The filled-in context fields, trimmed; empty ones are left out. */
export function filledContext<K extends string>(fields: Record<K, string>): Partial<Record<K, string>> {
  const context: Partial<Record<K, string>> = {};
  for (const key of Object.keys(fields) as K[]) {
    const value = fields[key].trim();
    if (value) context[key] = value;
  }
  return context;
}

/** 'gardening_question' -> 'gardening question'. */
export function humanize(value: string): string {
  return value.replace(/_/g, ' ');
}
