import { z } from 'zod';

/** One AI model (GET /api/admin/models/all answers an array of them). */
export interface ModelDto {
  id: string;
  name: string;
  displayName: string;
  inputPricePerMillion: number;
  outputPricePerMillion: number;
  maxTokens: number;
  isActive: boolean;
  isVisible: boolean;
  isLive: boolean;
  isFallback: boolean;
}

export interface ModelUsage {
  modelName: string;
  totalMessages: number;
  totalTokensUsed: number;
  totalCost: number;
  /** -1 (negative) to 1 (positive). */
  avgSentiment: number;
}

/** GET /api/admin/models/stats */
export interface ModelStatsResponse {
  stats: ModelUsage[];
  /** Today's spend in dollars. */
  globalSpending: number;
  /** Daily limit in dollars (default 50). */
  spendingLimit: number;
}

/** GET /api/admin/models/openai-models */
export interface OpenAiModelsResponse {
  models: string[];
}

const price = z.number({ error: 'must be a number' }).min(0).max(100_000);
const maxTokens = z.int({ error: 'must be a whole number' }).min(0).max(2_000_000);

/** POST /api/admin/models: adding an existing name updates it and makes it visible. */
export const CreateModelRequest = z.object({
  name: z.string().trim().min(1, { error: 'Model name is required' }).max(100),
  displayName: z.string().trim().max(100).optional(),
  inputPricePerMillion: price.default(0),
  outputPricePerMillion: price.default(0),
  maxTokens: maxTokens.default(4096),
  isActive: z.boolean().default(true),
  isVisible: z.boolean().default(true),
});
export type CreateModelRequest = z.output<typeof CreateModelRequest>;

/** PUT /api/admin/models/{id}: the changed fields only. */
export const UpdateModelRequest = z
  .object({
    inputPricePerMillion: price,
    outputPricePerMillion: price,
    maxTokens,
    isVisible: z.boolean(),
    isActive: z.boolean(),
    displayName: z.string().trim().min(1).max(100),
  })
  .partial();
export type UpdateModelRequest = z.output<typeof UpdateModelRequest>;

/** Answer of POST /api/admin/models and the PUT actions (default, fallback, remove, update). */
export interface ModelResponse {
  success: true;
  model: ModelDto;
}

export const CostImpactQuery = z.object({ fromModelId: z.uuid(), toModelId: z.uuid() });
export type CostImpactQuery = z.output<typeof CostImpactQuery>;

export interface ModelCostSummary {
  name: string;
  /** Dollars per million input tokens. */
  inputCost: number;
  outputCost: number;
  /** Average of input and output, dollars per million tokens. */
  avgCost: number;
}

/** GET /api/admin/models/cost-impact */
export interface CostImpactPreview {
  fromModel: ModelCostSummary;
  toModel: ModelCostSummary;
  /** Positive is an increase. */
  percentageChange: number;
  /** Dollars per million tokens, positive is an increase. */
  costDifference: number;
}
