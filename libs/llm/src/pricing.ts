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
  /** USD per million tokens: the plain mean of inputCost and outputCost (an equal input/output mix). */
  avgCost: number;
}

/** Spec 001 "model change preview". */
export interface ModelChangePreview {
  fromModel: ModelCostSummary;
  toModel: ModelCostSummary;
  /** (to.avgCost - from.avgCost) / from.avgCost * 100, 2 decimals; 0 when both are free, 100 from free to paid. */
  percentageChange: number;
  /** to.avgCost - from.avgCost, USD per million tokens (negative: the new model is cheaper). */
  costDifference: number;
}

function summarize(model: PricedModel): ModelCostSummary {
  return {
    name: model.name,
    inputCost: model.inputPricePerMillion,
    outputCost: model.outputPricePerMillion,
    avgCost: round((model.inputPricePerMillion + model.outputPricePerMillion) / 2, 6),
  };
}

export function previewCostChange(from: PricedModel, to: PricedModel): ModelChangePreview {
  const fromModel = summarize(from);
  const toModel = summarize(to);
  const difference = toModel.avgCost - fromModel.avgCost;
  let percentageChange: number;
  if (fromModel.avgCost === 0) percentageChange = toModel.avgCost === 0 ? 0 : 100;
  else percentageChange = round((difference / fromModel.avgCost) * 100, 2);
  return { fromModel, toModel, percentageChange, costDifference: round(difference, 6) };
}
