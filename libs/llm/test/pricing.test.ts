import { DEFAULT_MODEL_PRICES, costOf, costOfResult, defaultPriceOf, previewCostChange } from '@sprout/llm';

describe('prices', () => {
  it('has the list prices of common OpenAI models', () => {
    expect(DEFAULT_MODEL_PRICES['gpt-4o-mini']).toEqual({
      inputPricePerMillion: 0.15,
      outputPricePerMillion: 0.6,
    });
    expect(DEFAULT_MODEL_PRICES['gpt-4o']).toEqual({ inputPricePerMillion: 2.5, outputPricePerMillion: 10 });
    expect(DEFAULT_MODEL_PRICES['gpt-4.1-mini']).toEqual({
      inputPricePerMillion: 0.4,
      outputPricePerMillion: 1.6,
    });
    expect(DEFAULT_MODEL_PRICES['gpt-4.1']).toEqual({ inputPricePerMillion: 2, outputPricePerMillion: 8 });
    expect(DEFAULT_MODEL_PRICES['gpt-4.1-nano']).toEqual({
      inputPricePerMillion: 0.1,
      outputPricePerMillion: 0.4,
    });
    expect(DEFAULT_MODEL_PRICES['gpt-5-mini']).toEqual({
      inputPricePerMillion: 0.25,
      outputPricePerMillion: 2,
    });
  });

  it('prices dated snapshots like their model, longest name first', () => {
    expect(defaultPriceOf('gpt-4o-mini-2024-07-18')).toEqual(DEFAULT_MODEL_PRICES['gpt-4o-mini']);
    expect(defaultPriceOf('gpt-4o-2024-08-06')).toEqual(DEFAULT_MODEL_PRICES['gpt-4o']);
    expect(defaultPriceOf('GPT-4.1')).toEqual(DEFAULT_MODEL_PRICES['gpt-4.1']);
    expect(defaultPriceOf('gpt-4.10')).toBeUndefined();
    expect(defaultPriceOf('claude-3')).toBeUndefined();
  });
});

describe('costOf', () => {
  it('computes dollars from per-million prices', () => {
    expect(costOf({ inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 }, 1_000_000, 1_000_000)).toBe(
      0.75,
    );
    expect(costOf({ inputPricePerMillion: 2.5, outputPricePerMillion: 10 }, 1200, 300)).toBe(0.006);
  });

  it('rounds to 6 decimals', () => {
    // 123 * 0.15 / 1e6 + 45 * 0.6 / 1e6 = 0.00004545
    expect(costOf({ inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 }, 123, 45)).toBe(0.000045);
    expect(costOf({ inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 }, 0, 0)).toBe(0);
  });

  it('charges nothing for offline answers', () => {
    const price = { inputPricePerMillion: 2.5, outputPricePerMillion: 10 };
    expect(costOfResult({ provider: 'offline', promptTokens: 1000, completionTokens: 1000 }, price)).toBe(0);
    expect(costOfResult({ provider: 'openai', promptTokens: 1000, completionTokens: 1000 }, price)).toBe(
      0.0125,
    );
    expect(costOfResult({ provider: 'openai', promptTokens: 1000, completionTokens: 1000 }, undefined)).toBe(
      0,
    );
  });
});

describe('previewCostChange', () => {
  it('compares average per-million costs', () => {
    const preview = previewCostChange(
      { name: 'gpt-4o-mini', inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 },
      { name: 'gpt-4o', inputPricePerMillion: 2.5, outputPricePerMillion: 10 },
    );
    expect(preview).toEqual({
      fromModel: { name: 'gpt-4o-mini', inputCost: 0.15, outputCost: 0.6, avgCost: 0.375 },
      toModel: { name: 'gpt-4o', inputCost: 2.5, outputCost: 10, avgCost: 6.25 },
      percentageChange: 1566.67,
      costDifference: 5.875,
      basis: { kind: 'average' },
    });
  });

  it('prices a real token mix, input and output separately', () => {
    // 100 replies: 400k prompt tokens, 50k completion tokens (prompts dominate SMS replies).
    const mix = { replies: 100, inputTokens: 400_000, outputTokens: 50_000 };
    const preview = previewCostChange(
      { name: 'gpt-4o-mini', inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 },
      { name: 'gpt-4.1-mini', inputPricePerMillion: 0.4, outputPricePerMillion: 1.6 },
      mix,
    );
    // from: 0.4 * 0.15 + 0.05 * 0.6 = 0.09; to: 0.4 * 0.4 + 0.05 * 1.6 = 0.24.
    expect(preview.basis).toEqual({ kind: 'usage', ...mix, fromCost: 0.09, toCost: 0.24 });
    expect(preview.costDifference).toBe(0.15);
    expect(preview.percentageChange).toBe(166.67);
    // Where the average prices see no change, the mix does: these replies are mostly prompt.
    const inputHeavy = { name: 'a', inputPricePerMillion: 1, outputPricePerMillion: 0 };
    const outputHeavy = { name: 'b', inputPricePerMillion: 0, outputPricePerMillion: 1 };
    expect(previewCostChange(inputHeavy, outputHeavy).percentageChange).toBe(0);
    expect(previewCostChange(inputHeavy, outputHeavy, mix).percentageChange).toBe(-87.5);
  });

  it('falls back to the average prices when the mix has no tokens', () => {
    const preview = previewCostChange(
      { name: 'a', inputPricePerMillion: 1, outputPricePerMillion: 3 },
      { name: 'b', inputPricePerMillion: 2, outputPricePerMillion: 2 },
      { replies: 0, inputTokens: 0, outputTokens: 0 },
    );
    expect(preview).toMatchObject({ percentageChange: 0, costDifference: 0, basis: { kind: 'average' } });
  });

  it('reports a decrease as a negative change', () => {
    const preview = previewCostChange(
      { name: 'gpt-4.1', inputPricePerMillion: 2, outputPricePerMillion: 8 },
      { name: 'gpt-4.1-mini', inputPricePerMillion: 0.4, outputPricePerMillion: 1.6 },
    );
    expect(preview.percentageChange).toBe(-80);
    expect(preview.costDifference).toBe(-4);
  });

  it('handles free models without dividing by zero', () => {
    const free = { name: 'free', inputPricePerMillion: 0, outputPricePerMillion: 0 };
    expect(previewCostChange(free, free).percentageChange).toBe(0);
    expect(
      previewCostChange(free, { name: 'paid', inputPricePerMillion: 1, outputPricePerMillion: 1 })
        .percentageChange,
    ).toBe(100);
  });
});
