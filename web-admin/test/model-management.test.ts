import type { ModelDto } from '@sprout/contracts';
import { matchRoutes } from 'react-router';
import {
  changedFields,
  checkSpendingLimit,
  draftOf,
  formatCost,
  formatPrice,
  hasChanges,
  parseMaxTokens,
  parsePrice,
} from '../src/features/models/model-form';
import { nextModelSort, sortModels } from '../src/features/models/model-sorting';
import { spendPercent } from '../src/features/models/SpendingBanner';
import { modelTexts, modelToasts } from '../src/features/models/texts';
import { modelStatsQuery, modelsQuery } from '../src/features/models/queries';
import { routes } from '../src/app/routes';

const model = (name: string, fields: Partial<ModelDto> = {}): ModelDto => ({
  id: `id-${name}`,
  name,
  displayName: name,
  inputPricePerMillion: 0,
  outputPricePerMillion: 0,
  maxTokens: 4096,
  isActive: true,
  isVisible: true,
  isLive: false,
  isFallback: false,
  ...fields,
});

describe('numbers as the screen takes them', () => {
  it('reads a price as dollars, anything else as 0', () => {
    expect(parsePrice('0.15')).toBe(0.15);
    expect(parsePrice('12')).toBe(12);
    expect(parsePrice('')).toBe(0);
    expect(parsePrice('abc')).toBe(0);
    expect(parsePrice('-3')).toBe(0);
  });

  it('reads max tokens as a whole number from 0 to 2,000,000, empty as 0', () => {
    expect(parseMaxTokens('4096')).toBe(4096);
    expect(parseMaxTokens('')).toBe(0);
    expect(parseMaxTokens('12.9')).toBe(12);
    expect(parseMaxTokens('2500000')).toBe(2_000_000);
    expect(parseMaxTokens('-5')).toBe(0);
  });

  it('shows prices with 2 decimals and costs with 4', () => {
    expect(formatPrice(0.15)).toBe('$0.15');
    expect(formatPrice(10)).toBe('$10.00');
    expect(formatCost(0.0042)).toBe('$0.0042');
    expect(formatCost(42)).toBe('$42.0000');
  });
});

describe('row edits', () => {
  it('sends the changed fields only', () => {
    const m = model('gpt-4o', { inputPricePerMillion: 2.5, outputPricePerMillion: 10, maxTokens: 16384 });
    const draft = draftOf(m);
    expect(hasChanges(changedFields(m, draft))).toBe(false);
    expect(changedFields(m, { ...draft, inputPricePerMillion: '3', maxTokens: '16384' })).toEqual({
      inputPricePerMillion: 3,
    });
    expect(changedFields(m, { ...draft, outputPricePerMillion: 'x', isActive: false })).toEqual({
      outputPricePerMillion: 0,
      isActive: false,
    });
  });
});

describe('sorting', () => {
  const models = [
    model('gpt-4o', { inputPricePerMillion: 2.5, maxTokens: 16384, isLive: true }),
    model('gpt-4o-mini', { inputPricePerMillion: 0.15 }),
    model('gpt-3.5-turbo', { inputPricePerMillion: 0.5 }),
  ];
  const names = (list: ModelDto[]) => list.map((m) => m.name);

  it("keeps the server's order until a column is chosen, then sorts ascending and toggles", () => {
    expect(names(sortModels(models, null))).toEqual(['gpt-4o', 'gpt-4o-mini', 'gpt-3.5-turbo']);
    const ascending = nextModelSort(null, 'inputPricePerMillion');
    expect(names(sortModels(models, ascending))).toEqual(['gpt-4o-mini', 'gpt-3.5-turbo', 'gpt-4o']);
    const descending = nextModelSort(ascending, 'inputPricePerMillion');
    expect(descending.direction).toBe('desc');
    expect(names(sortModels(models, descending))).toEqual(['gpt-4o', 'gpt-3.5-turbo', 'gpt-4o-mini']);
    expect(names(sortModels(models, nextModelSort(descending, 'name')))).toEqual([
      'gpt-3.5-turbo',
      'gpt-4o',
      'gpt-4o-mini',
    ]);
    // Ties keep name order.
    expect(names(sortModels(models, { key: 'maxTokens', direction: 'asc' }))).toEqual([
      'gpt-3.5-turbo',
      'gpt-4o-mini',
      'gpt-4o',
    ]);
  });
});

describe('the spend banner', () => {
  it('is a share of the limit in percent; a limit of 0 is reached at once', () => {
    expect(spendPercent({ globalSpending: 42, spendingLimit: 50 })).toBe(84);
    expect(spendPercent({ globalSpending: 0, spendingLimit: 0 })).toBe(100);
  });
});

describe('the screen', () => {
  it('has its own route, and keys its queries by path', () => {
    const matched = matchRoutes(routes, '/admin/model-management') ?? [];
    expect(matched.at(-1)?.route.path).toBe('/admin/model-management');
    expect(modelsQuery.queryKey).toEqual(['/api/admin/models/all']);
    expect(modelStatsQuery(true).queryKey).toEqual(['/api/admin/models/stats', { showTestData: true }]);
  });

  it('uses the fixed screen texts and toasts', () => {
    expect(modelTexts).toMatchObject({
      loading: 'Loading models...',
      noUsage: 'No usage data available',
      caas: 'TBD',
      loadingValidModels: 'Loading valid OpenAI models...',
      modelNotFound: 'Model not found in OpenAI. Please check spelling.',
    });
    expect(modelToasts).toMatchObject({
      added: 'Model Added',
      updated: 'Model Updated',
      primaryUpdated: 'Primary Model Updated',
      fallbackSet: 'Fallback Model Set',
      removed: 'Model Removed',
      addFailed: 'Add Failed',
      saveFailed: 'Save Failed',
      addFailedFallback: 'Failed to add model',
      updateFailedFallback: 'Failed to update model',
    });
    expect(modelToasts.updateOneFailedFallback('abc')).toBe('Failed to update model abc');
  });
});

describe('the spending-limit field', () => {
  it("takes the server's bounds from the contract and says what is wrong", () => {
    expect(checkSpendingLimit('50')).toEqual({ ok: true, value: 50 });
    expect(checkSpendingLimit(' 12.5 ')).toEqual({ ok: true, value: 12.5 });
    expect(checkSpendingLimit('0')).toEqual({ ok: true, value: 0 });
    expect(checkSpendingLimit('1000000')).toEqual({ ok: true, value: 1_000_000 });
    expect(checkSpendingLimit('-5')).toEqual({ ok: false, message: 'The limit must be 0 or more' });
    expect(checkSpendingLimit('1000001')).toEqual({
      ok: false,
      message: 'The limit must be at most 1000000',
    });
    for (const text of ['abc', '12abc', '1e3', '0x10', '--1'])
      expect(checkSpendingLimit(text)).toEqual({
        ok: false,
        message: 'The limit must be a number of dollars',
      });
    expect(checkSpendingLimit('  ')).toEqual({ ok: false, message: 'Enter a limit in dollars, e.g. 50' });
  });
});
