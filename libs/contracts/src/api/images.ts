import { z } from 'zod';
import type { IsoDateTime } from './common';

/** GET /api/admin/image-stats */
export interface ImageStats {
  totalImages: number;
  processedImages: number;
  failedImages: number;
  /** Dollars. */
  totalCost: number;
  totalTokens: number;
  /** Milliseconds. */
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
  tokenUsage: number;
  cost: number;
  modelUsed: string | null;
  imageProcessingError: string | null;
}

/** POST /api/test/image-processing */
export const ImageProcessingTestRequest = z.object({
  imageUrl: z.url({ protocol: /^https?$/, error: 'Please provide an image URL' }).max(2000),
  messageText: z.string().trim().max(1600).optional().default('What can you tell me about this plant?'),
  phoneNumber: z.string().trim().max(20).optional(),
});
export type ImageProcessingTestRequest = z.output<typeof ImageProcessingTestRequest>;

export interface ImageProcessingTestResponse {
  success: boolean;
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
  contentType: string;
  /** Whether the case should be accepted. */
  expectedValid: boolean;
  actualValid: boolean;
  /** actualValid === expectedValid. */
  success: boolean;
  reason: string | null;
}

/** POST /api/test/image-validation */
export interface ImageValidationTestResponse {
  testResults: ImageValidationTestCase[];
  passed: number;
  total: number;
}
