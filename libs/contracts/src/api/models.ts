import { z } from 'zod';
import { answer, endpoint } from '../http/endpoint';
import { TestDataQuery, idParams, textField, uuidParam } from '../http/params';

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

/** One row of the Model Usage table: a model's calls over the last MODEL_USAGE_DAYS days. */
export interface ModelUsage {
  modelName: string;
  /** Replies the model wrote. */
  totalMessages: number;
  /** Prompt and completion tokens of all its calls (replies, summaries, images). */
  totalTokensUsed: number;
  /** Dollars. */
  totalCost: number;
  /**
   * How gardeners answered the model's replies: the mean sentiment of the next message in the
   * conversation, -1 (negative or frustrated) to 1 (positive); 0 when none is known.
   */
  avgSentiment: number;
}

/** GET /api/admin/models/stats */
export interface ModelStatsResponse {
  /** Most spent first. */
  stats: ModelUsage[];
  /** Today's spend in dollars (every model call, test users' included), in SPEND_TIME_ZONE's day. */
  globalSpending: number;
  /** Daily limit in dollars (default 50). */
  spendingLimit: number;
}

/** GET /api/admin/models/openai-models */
export interface OpenAiModelsResponse {
  /** Model names, sorted. Empty when the provider's list could not be read. */
  models: string[];
  /** 'openai': the provider's list for our key; 'price-table': no key, the models we have prices for. */
  source: 'openai' | 'price-table';
  /**
   * Whether a new model's name is checked against the provider when it is saved: true only with
   * an API key and the provider's list read. False: any well-formed name is saved as typed.
   */
  namesChecked: boolean;
}

/** The banner shows at this share of the daily limit (80%). */
export const SPENDING_WARNING_RATIO = 0.8;
export const DEFAULT_MAX_TOKENS = 4096;
export const MAX_TOKENS_LIMIT = 2_000_000;
/** Highest price per million tokens, and highest daily limit, the console accepts (dollars). */
export const MAX_PRICE_PER_MILLION = 100_000;
export const MAX_SPENDING_LIMIT = 1_000_000;
/** Days of usage the Model Usage table and the cost impact read. */
export const MODEL_USAGE_DAYS = 30;

export const MODEL_NOT_FOUND = 'Model not found.';
export const INVALID_MODEL_ID = 'Model id must be a UUID';
/** The refusal of a name missing from the provider's list. */
export const invalidOpenAiModelMessage = (name: string): string =>
  `Model "${name}" is not a valid OpenAI model. Please check the model name.`;

const price = z
  .number({ error: 'must be a number' })
  .min(0, { error: 'must be 0 or more' })
  .max(MAX_PRICE_PER_MILLION, { error: `must be at most ${MAX_PRICE_PER_MILLION}` });
const maxTokens = z
  .int({ error: 'must be a whole number' })
  .min(0, { error: `must be a whole number from 0 to ${MAX_TOKENS_LIMIT}` })
  .max(MAX_TOKENS_LIMIT, { error: `must be a whole number from 0 to ${MAX_TOKENS_LIMIT}` });
const flag = z.boolean({ error: 'must be true or false' });
const JSON_OBJECT = { error: 'The body must be a JSON object' };

/** Provider model names: letters, digits and . _ : / - ("gpt-4o-mini", "ft:gpt-4o-mini:acme::x1"). */
export const MODEL_NAME_FORMAT = /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/;

/** POST /api/admin/models: adding an existing name updates it and makes it visible. */
export const CreateModelRequest = z.object(
  {
    name: textField('Please enter a model name')
      .trim()
      .min(1, { error: 'Please enter a model name', abort: true })
      .max(100, { error: 'must be at most 100 characters' })
      .regex(MODEL_NAME_FORMAT, { error: 'must be a model name such as gpt-4o-mini' }),
    /** Absent or blank: the name. */
    displayName: textField('must be text')
      .trim()
      .max(100, { error: 'must be at most 100 characters' })
      .nullish()
      .transform((v) => v || null),
    inputPricePerMillion: price.default(0),
    outputPricePerMillion: price.default(0),
    maxTokens: maxTokens.default(DEFAULT_MAX_TOKENS),
    isActive: flag.default(true),
    isVisible: flag.default(true),
  },
  JSON_OBJECT,
);
export type CreateModelRequest = z.output<typeof CreateModelRequest>;

/** PUT /api/admin/models/{id}: the changed fields only; any other field is a 400. */
export const UpdateModelRequest = z
  .strictObject(
    {
      inputPricePerMillion: price,
      outputPricePerMillion: price,
      maxTokens,
      isVisible: flag,
      isActive: flag,
      displayName: textField('must be text')
        .trim()
        .min(1, { error: 'must not be empty' })
        .max(100, { error: 'must be at most 100 characters' }),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `only prices, maxTokens, displayName, isActive and isVisible can be changed (not ${issue.keys.join(', ')})`
          : JSON_OBJECT.error,
    },
  )
  .partial();
export type UpdateModelRequest = z.output<typeof UpdateModelRequest>;

/** Answer of the PUT actions (update, default, fallback, remove). */
export interface ModelResponse {
  success: true;
  model: ModelDto;
}

/** Answer of POST /api/admin/models. */
export interface CreateModelResponse extends ModelResponse {
  /** False when a model of that name existed: it was updated and made visible. */
  created: boolean;
}

export const CostImpactQuery = z.object({
  fromModelId: uuidParam('must be a model id (UUID)'),
  toModelId: uuidParam('must be a model id (UUID)'),
});
export type CostImpactQuery = z.output<typeof CostImpactQuery>;

export interface ModelCostSummary {
  name: string;
  /** Dollars per million input tokens. */
  inputCost: number;
  /** Dollars per million output tokens. */
  outputCost: number;
  /** Plain mean of input and output, dollars per million tokens. */
  avgCost: number;
}

/** What the cost impact's figures are projected on. */
export type CostImpactBasis =
  | {
      /** The replies of the last `days` days, their input and output tokens priced separately. */
      kind: 'usage';
      days: number;
      replies: number;
      inputTokens: number;
      outputTokens: number;
      /** Dollars those replies cost at the current model's prices, and would at the new one's. */
      fromCost: number;
      toCost: number;
    }
  | {
      /** No replies in the last `days` days: the average prices (an even input/output mix). */
      kind: 'average';
      days: number;
    };

/** GET /api/admin/models/cost-impact */
export interface CostImpactPreview {
  fromModel: ModelCostSummary;
  toModel: ModelCostSummary;
  /** Positive is an increase; 0 when both are free, 100 from free to paid. */
  percentageChange: number;
  /**
   * Dollars, positive is an increase: with usage, what the last `days` days of replies would have
   * cost more or less; without, the difference of the average prices per million tokens.
   */
  costDifference: number;
  basis: CostImpactBasis;
}

/** PUT /api/admin/models/spending-limit */
export const SpendingLimitRequest = z.object(
  {
    spendingLimit: z
      .number({ error: 'must be a number of dollars' })
      .min(0, { error: 'must be 0 or more' })
      .max(MAX_SPENDING_LIMIT, { error: `must be at most ${MAX_SPENDING_LIMIT}` }),
  },
  JSON_OBJECT,
);
export type SpendingLimitRequest = z.output<typeof SpendingLimitRequest>;

export interface SpendingLimitResponse {
  success: true;
  spendingLimit: number;
}

const ModelIdParams = idParams(INVALID_MODEL_ID);
const TAG = 'model management';

/** Model management and the daily spending limit. */
export const modelsApi = {
  all: endpoint({
    method: 'GET',
    path: '/api/admin/models/all',
    access: 'admin',
    tag: TAG,
    summary: 'The visible models (removed ones are hidden), live first, then fallback, then by name',
    answer: answer<ModelDto[]>('Models'),
  }),
  stats: endpoint({
    method: 'GET',
    path: '/api/admin/models/stats',
    access: 'admin',
    tag: TAG,
    summary: "Usage per model (last 30 days), today's spend and the daily spending limit",
    description:
      "Usage counts real users' calls, or test users' with showTestData=true. Today's spend is every " +
      'model call since midnight in SPEND_TIME_ZONE, which is what the limit caps.',
    query: TestDataQuery,
    answer: answer<ModelStatsResponse>('Usage, spend and limit'),
  }),
  openAiModels: endpoint({
    method: 'GET',
    path: '/api/admin/models/openai-models',
    access: 'admin',
    tag: TAG,
    summary: "The provider's model names (cached a few minutes); without an API key, our price table's",
    description:
      'A provider failure is logged and answers an empty list. namesChecked says whether the ' +
      'server checks a new name against the provider (an API key and the list read).',
    answer: answer<OpenAiModelsResponse>('Model names'),
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/admin/models',
    access: 'admin',
    tag: TAG,
    summary: 'Add a model; an existing name is updated and made visible',
    description:
      "With an API key the name must be in the provider's model list (when it can be read): " +
      'else 400 \'Model "{name}" is not a valid OpenAI model. Please check the model name.\'',
    body: CreateModelRequest,
    answer: answer<CreateModelResponse>('The saved model, and whether it is new'),
  }),
  spendingLimit: endpoint({
    method: 'PUT',
    path: '/api/admin/models/spending-limit',
    access: 'admin',
    tag: TAG,
    summary: 'Set the daily spending limit in dollars (replies use templates once it is reached)',
    body: SpendingLimitRequest,
    answer: answer<SpendingLimitResponse>('The new limit'),
  }),
  costImpact: endpoint({
    method: 'GET',
    path: '/api/admin/models/cost-impact',
    access: 'admin',
    tag: TAG,
    summary: 'What changing the live model would cost, on the last 30 days of replies',
    query: CostImpactQuery,
    answer: answer<CostImpactPreview>('The change preview'),
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/admin/models/:id',
    access: 'admin',
    tag: TAG,
    summary: 'Change prices, max tokens, display name, isActive or isVisible (changed fields only)',
    description: 'The live model cannot be deactivated or hidden (409); deactivating the fallback clears it.',
    params: ModelIdParams,
    body: UpdateModelRequest,
    answer: answer<ModelResponse>('The saved model'),
  }),
  setLive: endpoint({
    method: 'PUT',
    path: '/api/admin/models/:id/default',
    access: 'admin',
    tag: TAG,
    summary: 'Make the model live (the primary); the fallback model swaps places with the old live one',
    description: 'The model must be active and visible (409 otherwise).',
    params: ModelIdParams,
    answer: answer<ModelResponse>('The live model'),
  }),
  setFallback: endpoint({
    method: 'PUT',
    path: '/api/admin/models/:id/fallback',
    access: 'admin',
    tag: TAG,
    summary: 'Make the model the fallback (active, visible and not the live model)',
    params: ModelIdParams,
    answer: answer<ModelResponse>('The fallback model'),
  }),
  remove: endpoint({
    method: 'PUT',
    path: '/api/admin/models/:id/remove',
    access: 'admin',
    tag: TAG,
    summary: 'Hide the model from the list (the live model cannot be removed; the fallback is cleared)',
    params: ModelIdParams,
    answer: answer<ModelResponse>('The hidden model'),
  }),
} as const;
