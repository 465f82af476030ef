// Model prices (USD per million tokens) and call cost.
import { type ChatResult } from './types';

export interface ModelPrice {
  inputPricePerMillion: number;
  outputPricePerMillion: number;
}

/** OpenAI list prices for standard (non-batch, uncached) text tokens. */
export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o-mini': { inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 },
  'gpt-4o': { inputPricePerMillion: 2.5, outputPricePerMillion: 10 },
  'gpt-4.1-nano': { inputPricePerMillion: 0.1, outputPricePerMillion: 0.4 },
  'gpt-4.1-mini': { inputPricePerMillion: 0.4, outputPricePerMillion: 1.6 },
  'gpt-4.1': { inputPricePerMillion: 2, outputPricePerMillion: 8 },
  'gpt-5-nano': { inputPricePerMillion: 0.05, outputPricePerMillion: 0.4 },
  'gpt-5-mini': { inputPricePerMillion: 0.25, outputPricePerMillion: 2 },
  'gpt-5': { inputPricePerMillion: 1.25, outputPricePerMillion: 10 },
  'gpt-4-turbo': { inputPricePerMillion: 10, outputPricePerMillion: 30 },
  'gpt-3.5-turbo': { inputPricePerMillion: 0.5, outputPricePerMillion: 1.5 },
  'o4-mini': { inputPricePerMillion: 1.1, outputPricePerMillion: 4.4 },
  'o3-mini': { inputPricePerMillion: 1.1, outputPricePerMillion: 4.4 },
  o3: { inputPricePerMillion: 2, outputPricePerMillion: 8 },
};

/**
 * The default price of a model name, dated snapshots included ("gpt-4o-mini-2024-07-18" is
 * priced as "gpt-4o-mini"): the longest table entry that the name equals or extends with "-".
 */
export function defaultPriceOf(modelName: string): ModelPrice | undefined {
  const name = modelName.trim().toLowerCase();
  let best: string | undefined;
  for (const key of Object.keys(DEFAULT_MODEL_PRICES)) {
    if ((name === key || name.startsWith(`${key}-`)) && (best === undefined || key.length > best.length))
      best = key;
  }
  return best === undefined ? undefined : DEFAULT_MODEL_PRICES[best];
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round((value + Number.EPSILON) * factor) / factor;
}

/** Dollars for one call, rounded to 6 decimals (a millionth of a dollar). */
export function costOf(price: ModelPrice, promptTokens: number, completionTokens: number): number {
  return round(
    (promptTokens * price.inputPricePerMillion + completionTokens * price.outputPricePerMillion) / 1_000_000,
    6,
  );
}

/**
 * Our tokenizer (o200k) counts prompts exactly for current models; older encodings and the
 * provider's own framing can count a little more, so reservations add this much.
 */
const PROMPT_TOKEN_MARGIN = 0.1;
const PROMPT_TOKEN_ALLOWANCE = 32;

/**
 * The most a call can cost before it is made: its counted prompt (with a margin) and the whole
 * completion allowance, rounded up to a micro-dollar. 0 when the model has no known price.
 */
export function worstCaseCost(
  price: ModelPrice | undefined,
  promptTokens: number,
  maxCompletionTokens: number,
): number {
  if (price === undefined) return 0;
  const prompt = Math.ceil(promptTokens * (1 + PROMPT_TOKEN_MARGIN)) + PROMPT_TOKEN_ALLOWANCE;
  const dollars =
    (prompt * price.inputPricePerMillion + maxCompletionTokens * price.outputPricePerMillion) / 1_000_000;
  return Math.ceil(dollars * 1_000_000 - 1e-6) / 1_000_000;
}

/** The cost of a model call: 0 for offline answers, else priced (0 when the model has no known price). */
export function costOfResult(
  result: Pick<ChatResult, 'provider' | 'promptTokens' | 'completionTokens'>,
  price: ModelPrice | undefined,
): number {
  if (result.provider === 'offline' || price === undefined) return 0;
  return costOf(price, result.promptTokens, result.completionTokens);
}

export interface PricedModel extends ModelPrice {
  name: string;
}

export interface ModelCostSummary {
  name: string;
  /** USD per million input tokens. */
  inputCost: number;
  /** USD per million output tokens. */
  outputCost: number;
  /** USD per million tokens: the plain mean of inputCost and outputCost (an even input/output mix). */
  avgCost: number;
}

/** Tokens of a set of replies, to price a model change on (input and output priced separately). */
export interface TokenMix {
  /** How many replies the tokens are from. */
  replies: number;
  inputTokens: number;
  outputTokens: number;
}

export type CostChangeBasis =
  | {
      kind: 'usage';
      replies: number;
      inputTokens: number;
      outputTokens: number;
      fromCost: number;
      toCost: number;
    }
  | { kind: 'average' };

/** The preview of a live model change, with what its figures are projected on. */
export interface ModelChangePreview {
  fromModel: ModelCostSummary;
  toModel: ModelCostSummary;
  /** Change of the projected cost in percent, 2 decimals; 0 when both are free, 100 from free to paid. */
  percentageChange: number;
  /**
   * USD, negative when the new model is cheaper: on a token mix, what those tokens would cost more
   * or less; without one, the difference of the average prices per million tokens.
   */
  costDifference: number;
  basis: CostChangeBasis;
}

function summarize(model: PricedModel): ModelCostSummary {
  return {
    name: model.name,
    inputCost: model.inputPricePerMillion,
    outputCost: model.outputPricePerMillion,
    avgCost: round((model.inputPricePerMillion + model.outputPricePerMillion) / 2, 6),
  };
}

function percentChange(from: number, to: number): number {
  if (from === 0) return to === 0 ? 0 : 100;
  return round(((to - from) / from) * 100, 2);
}

/**
 * What moving from one model to another would cost. With a token mix that has tokens (the real
 * replies of a period), both models price those input and output tokens; without one, the
 * average prices per million tokens are compared.
 */
export function previewCostChange(from: PricedModel, to: PricedModel, mix?: TokenMix): ModelChangePreview {
  const fromModel = summarize(from);
  const toModel = summarize(to);
  if (mix !== undefined && mix.inputTokens + mix.outputTokens > 0) {
    // Unrounded: a month of small replies can cost less than the 6-decimal rounding of costOf.
    const priceMix = (price: ModelPrice) =>
      (mix.inputTokens * price.inputPricePerMillion + mix.outputTokens * price.outputPricePerMillion) /
      1_000_000;
    const fromCost = priceMix(from);
    const toCost = priceMix(to);
    return {
      fromModel,
      toModel,
      percentageChange: percentChange(fromCost, toCost),
      costDifference: round(toCost - fromCost, 6),
      basis: {
        kind: 'usage',
        replies: mix.replies,
        inputTokens: mix.inputTokens,
        outputTokens: mix.outputTokens,
        fromCost: round(fromCost, 6),
        toCost: round(toCost, 6),
      },
    };
  }
  return {
    fromModel,
    toModel,
    percentageChange: percentChange(fromModel.avgCost, toModel.avgCost),
    costDifference: round(toModel.avgCost - fromModel.avgCost, 6),
    basis: { kind: 'average' },
  };
}

/** The model names of the price table, sorted (the offline stand-in for the provider's list). */
export function pricedModelNames(): string[] {
  return Object.keys(DEFAULT_MODEL_PRICES).sort();
}
