import {
  caseRegion,
  evaluateAdvisor,
  evaluateLocation,
  evaluateValidation,
  formatConfusionTable,
  gsm7Segments,
} from '@sprout/gardening';

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

  it('scores the advisor by topic and by region, with the facts and hardiness of each answer', () => {
    const advisor = evaluateAdvisor([
      {
        question: 'when is my last frost',
        zipCode: '80202',
        expectedTopics: ['planting schedule'],
        mustMatch: 'May 5',
      },
      {
        question: 'when is my last frost',
        zipCode: '97201',
        expectedTopics: ['planting schedule'],
        mustMatch: 'Apr 17',
      },
      {
        question: 'what kind of grass should I plant',
        zipCode: '98101',
        expectedTopics: ['lawn'],
        mustNotMatch: 'Bermuda',
      },
      { question: 'how do I get rid of aphids', zone: '6a', expectedTopics: ['pests'] },
      { question: 'what about slugs?', history: ['how do I get rid of aphids'], expectedTopics: ['pests'] },
    ]);
    expect(advisor.correct).toBe(4);
    expect(advisor.failures).toEqual([
      {
        input: 'when is my last frost',
        expected: 'planting schedule',
        actual: expect.stringMatching(/^planting schedule \(wrong facts: In zone 8b/),
      },
    ]);
    expect(advisor.byRegion).toEqual(
      expect.arrayContaining([
        { kind: 'Mountain West', total: 1, correct: 1, accuracy: 1 },
        { kind: 'Pacific Northwest', total: 2, correct: 1, accuracy: 0.5 },
        { kind: 'zone only', total: 1, correct: 1, accuracy: 1 },
        { kind: 'no location', total: 1, correct: 1, accuracy: 1 },
      ]),
    );
    expect(advisor.twoSegments).toEqual({ total: 5, within: 5, share: 1 });
  });

  it('counts GSM-7 segments and names the region of a case', () => {
    expect(gsm7Segments('x'.repeat(160))).toBe(1);
    expect(gsm7Segments('x'.repeat(161))).toBe(2);
    expect(gsm7Segments('x'.repeat(306))).toBe(2);
    expect(gsm7Segments(`${'x'.repeat(305)}{`)).toBe(3);
    expect(caseRegion({ zipCode: '85004' })).toBe('Southwest');
    expect(caseRegion({ region: 'Front Range' })).toBe('Mountain West');
    expect(caseRegion({ zone: '7b' })).toBe('zone only');
    expect(caseRegion({})).toBe('no location');
  });
});
