import { evaluateLocation, evaluateValidation, formatConfusionTable } from '@sprout/gardening';

describe('evaluation reports', () => {
  const report = evaluateValidation([
    { text: 'When should I plant garlic?', kind: 'gardening_question' },
    { text: 'tell me a joke', kind: 'non_gardening' },
    { text: 'tell me a joke', kind: 'spam' },
  ]);

  it('counts accuracy per kind and overall', () => {
    expect(report.total).toBe(3);
    expect(report.correct).toBe(2);
    expect(report.accuracy).toBeCloseTo(2 / 3);
    expect(report.byKind).toEqual(
      expect.arrayContaining([
        { kind: 'gardening_question', total: 1, correct: 1, accuracy: 1 },
        { kind: 'spam', total: 1, correct: 0, accuracy: 0 },
      ]),
    );
    expect(report.failures).toEqual([{ input: 'tell me a joke', expected: 'spam', actual: 'non_gardening' }]);
  });

  it('builds a confusion table', () => {
    expect(report.confusion).toEqual({
      gardening_question: { gardening_question: 1 },
      non_gardening: { non_gardening: 1 },
      spam: { non_gardening: 1 },
    });
    const table = formatConfusionTable(report).split('\n');
    expect(table).toHaveLength(4);
    expect(table[3]).toMatch(/^spam\s+\.\s+1$/);
  });

  it('requires every expected location field to match', () => {
    const location = evaluateLocation([
      { text: 'portland or', expect: { locationType: 'city_state', state: 'OR' } },
      { text: 'portland or', expect: { locationType: 'city_state', state: 'ME' } },
    ]);
    expect(location.correct).toBe(1);
    expect(location.failures[0]?.actual).toBe('city_state (state=OR)');
  });
});
