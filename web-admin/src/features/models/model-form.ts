import {
  type EndpointRequest,
  MAX_TOKENS_LIMIT,
  type ModelDto,
  SpendingLimitRequest,
  type api,
} from '@sprout/contracts';
import { formatDollars } from '@sprout/ui';
import { PRICE_STEP } from './texts';

type UpdateModelBody = EndpointRequest<typeof api.models.update>['body'];

// Numbers as the screen takes and shows them.

/** A typed price: dollars per million tokens; anything that is not a number of 0 or more is 0. */
export function parsePrice(text: string): number {
  const value = Number.parseFloat(text);
  return Number.isFinite(value) && value >= 0 ? value : 0;
}

/** Typed max tokens: a whole number from 0 to 2,000,000; empty (or not a number) is 0. */
export function parseMaxTokens(text: string): number {
  const value = Number.parseInt(text, 10);
  if (!Number.isFinite(value)) return 0;
  return Math.min(MAX_TOKENS_LIMIT, Math.max(0, value));
}

/** One of a model's three numbers, as the add dialog and a row being edited take it. */
export interface ModelNumberField {
  key: 'inputPricePerMillion' | 'outputPricePerMillion' | 'maxTokens';
  /** The add dialog's field. */
  id: string;
  label: string;
  /** A row's field is named "<rowLabel> of <model>". */
  rowLabel: string;
  inputMode: 'decimal' | 'numeric';
  step: number;
  max?: number;
  parse: (typed: string) => number;
}

const priceField = (
  key: ModelNumberField['key'],
  id: string,
  label: string,
  rowLabel: string,
): ModelNumberField => ({
  key,
  id,
  label,
  rowLabel,
  inputMode: 'decimal',
  step: PRICE_STEP,
  parse: parsePrice,
});

export const MODEL_NUMBER_FIELDS: readonly ModelNumberField[] = [
  priceField('inputPricePerMillion', 'model-input-price', 'Input Price', 'Input price'),
  priceField('outputPricePerMillion', 'model-output-price', 'Output Price', 'Output price'),
  {
    key: 'maxTokens',
    id: 'model-max-tokens',
    label: 'Max Tokens',
    rowLabel: 'Max tokens',
    inputMode: 'numeric',
    step: 1,
    max: MAX_TOKENS_LIMIT,
    parse: parseMaxTokens,
  },
];

/** A typed daily limit: its dollars, or what is wrong with it in the server's own words. */
export type SpendingLimitCheck = { ok: true; value: number } | { ok: false; message: string };

/** A plain decimal number, signed or not: anything else (letters, "1e3", "0x10") is not a number here. */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)$/;

/**
 * The daily limit as typed, checked against the bounds the server enforces (the contract's
 * schema, so the field and the server cannot disagree).
 */
export function checkSpendingLimit(text: string): SpendingLimitCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'Enter a limit in dollars, e.g. 50' };
  const parsed = SpendingLimitRequest.shape.spendingLimit.safeParse(
    DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN,
  );
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, message: `The limit ${parsed.error.issues[0]?.message ?? 'is not valid'}` };
}

/** Prices per million tokens: 2 decimals. */
export const formatPrice = (value: number): string => formatDollars(value, 2);
/** Costs: 4 decimals. */
export const formatCost = (value: number): string => formatDollars(value, 4);

/** A row's edits as typed, held until saved. */
export interface ModelDraft {
  inputPricePerMillion: string;
  outputPricePerMillion: string;
  maxTokens: string;
  isActive: boolean;
}

export function draftOf(model: ModelDto): ModelDraft {
  return {
    inputPricePerMillion: String(model.inputPricePerMillion),
    outputPricePerMillion: String(model.outputPricePerMillion),
    maxTokens: String(model.maxTokens),
    isActive: model.isActive,
  };
}

/** The fields a draft changes (what PUT /api/admin/models/{id} is sent); empty when none. */
export function changedFields(model: ModelDto, draft: ModelDraft): UpdateModelBody {
  const changes: UpdateModelBody = {};
  const input = parsePrice(draft.inputPricePerMillion);
  const output = parsePrice(draft.outputPricePerMillion);
  const maxTokens = parseMaxTokens(draft.maxTokens);
  if (input !== model.inputPricePerMillion) changes.inputPricePerMillion = input;
  if (output !== model.outputPricePerMillion) changes.outputPricePerMillion = output;
  if (maxTokens !== model.maxTokens) changes.maxTokens = maxTokens;
  if (draft.isActive !== model.isActive) changes.isActive = draft.isActive;
  return changes;
}

export const hasChanges = (changes: UpdateModelBody): boolean => Object.keys(changes).length > 0;
