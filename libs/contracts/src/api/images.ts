import { z } from 'zod';
import { answer, endpoint } from '../http/endpoint';
import { textField } from '../http/params';
import type { IsoDateTime } from './common';

/** GET /api/admin/image-stats */
export interface ImageStats {
  totalImages: number;
  processedImages: number;
  failedImages: number;
  /** Dollars. */
  totalCost: number;
  totalTokens: number;
  /** Milliseconds: the mean of the recorded analysis times. */
  avgProcessingTime: number;
}

/** One row of GET /api/admin/image-messages (an array). */
export interface ImageMessageDto {
  id: string;
  user: { phoneNumber: string };
  content: string;
  createdAt: IsoDateTime;
  /** Null while not yet processed. */
  imageProcessed: boolean | null;
  imageContentType: string | null;
  imageUrl: string | null;
  /** What the vision model said about the picture. */
  imageAnalysis: string | null;
  tokenUsage: number;
  cost: number;
  modelUsed: string | null;
  imageProcessingError: string | null;
}

/** Recent Images lists this many (newest first). */
export const IMAGE_MESSAGES_LIMIT = 50;

// The image policy, one place for the analyser's fetch and the validation suite.
/** What the vision model accepts. */
export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
/** Twilio accepts MMS media up to 5 MB. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_MAX_REDIRECTS = 3;

/** The image type the bytes really are (magic numbers), or null when they are no image we accept. */
export const sniffImageType = (bytes: Uint8Array): (typeof IMAGE_CONTENT_TYPES)[number] | null => {
  const starts = (...values: number[]): boolean => values.every((value, i) => bytes[i] === value);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42)
    return 'image/webp';
  return null;
};

/** The image test's defaults. */
export const IMAGE_TEST_DEFAULT_MESSAGE = 'What can you tell me about this plant?';
export const IMAGE_TEST_DEFAULT_PHONE = '+15555550199';
export const IMAGE_URL_REQUIRED = 'Please provide an image URL';

/** POST /api/test/image-processing */
export const ImageProcessingTestRequest = z.object({
  imageUrl: textField(IMAGE_URL_REQUIRED)
    .trim()
    .pipe(
      z.url({ protocol: /^https?$/, error: IMAGE_URL_REQUIRED }).max(2000, { error: IMAGE_URL_REQUIRED }),
    ),
  messageText: textField()
    .trim()
    .max(1600)
    .optional()
    .transform((value) => value || IMAGE_TEST_DEFAULT_MESSAGE),
  phoneNumber: textField()
    .trim()
    .regex(/^(\+[1-9]\d{7,14})?$/, { error: 'must be an E.164 phone number (e.g. +15035550123)' })
    .optional()
    .transform((value) => value || IMAGE_TEST_DEFAULT_PHONE),
});
export type ImageProcessingTestRequest = z.output<typeof ImageProcessingTestRequest>;

export interface ImageProcessingTestResponse {
  success: boolean;
  /** The test message recorded (it shows in Recent Images). */
  messageId: string;
  imageProcessing: {
    analysis: string;
    tokensUsed: number;
    cost: number;
    model: string;
    processingTime: number;
  };
}

export interface ImageValidationTestCase {
  name: string;
  imageUrl: string;
  /** What the fetch answered, or null when nothing was fetched. */
  contentType: string | null;
  /** Whether the case should be accepted. */
  expectedValid: boolean;
  actualValid: boolean;
  /** actualValid === expectedValid. */
  success: boolean;
  /** Why it was refused; null when accepted. */
  reason: string | null;
}

/** POST /api/test/image-validation */
export interface ImageValidationTestResponse {
  testResults: ImageValidationTestCase[];
  passed: number;
  total: number;
}

/** The pictures the stack serves for its own validation suite. */
export const IMAGE_SAMPLE_NAMES = [
  'leaf.jpg',
  'leaf.png',
  'not-an-image.html',
  'oversized.jpg',
  'missing.jpg',
  'redirect-to-private.jpg',
] as const;

export const imagesApi = {
  messages: endpoint({
    method: 'GET',
    path: '/api/admin/image-messages',
    access: 'admin',
    tag: 'image monitoring',
    summary: `The ${IMAGE_MESSAGES_LIMIT} most recent messages with a picture, newest first`,
    answer: answer<ImageMessageDto[]>('Image messages with their analysis, tokens, cost, model and error'),
  }),
  stats: endpoint({
    method: 'GET',
    path: '/api/admin/image-stats',
    access: 'admin',
    tag: 'image monitoring',
    summary: 'Image totals: pictures, processed, failed, cost, tokens, mean processing time',
    answer: answer<ImageStats>('The Overview tab of Image monitoring'),
  }),
  processingTest: endpoint({
    method: 'POST',
    path: '/api/test/image-processing',
    access: 'admin',
    tag: 'image monitoring',
    summary: 'Record a test image message and analyse it through the image.analyze queue',
    description:
      'The image is fetched by image-processor through the SSRF-safe fetcher from any public host (the ' +
      "stack's own /api/image-samples/ are read in place). 422 when the fetch is " +
      'refused or the analysis fails (the message keeps the error); 504 when no answer comes in time.',
    body: ImageProcessingTestRequest,
    answer: answer<ImageProcessingTestResponse>('The analysis, tokens used and cost'),
  }),
  validationTest: endpoint({
    method: 'POST',
    path: '/api/test/image-validation',
    access: 'admin',
    tag: 'image monitoring',
    summary: 'Run the fixed image validation suite through the image fetcher and validator',
    answer: answer<ImageValidationTestResponse>(
      'Each case with expected and actual validity; passed of total',
    ),
  }),
  sample: endpoint({
    method: 'GET',
    path: '/api/image-samples/:name',
    access: 'public',
    tag: 'image monitoring',
    summary: "The validation suite's own pictures (a JPEG, a PNG, a page, an oversized file, a redirect)",
    params: z.object({ name: z.enum(IMAGE_SAMPLE_NAMES, { error: 'Unknown sample' }) }),
    // Its own type per sample (image/jpeg, image/png, text/html), a 302 or a 404.
    answer: answer<string>('The sample'),
  }),
} as const;
