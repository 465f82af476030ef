import {
  advisorReferences,
  analyzeText,
  detectLocation,
  detectTopics,
  processMessage,
  validateMessage,
} from '@sprout/gardening';
import advisorSet from '../eval/advisor.json';
import locationSet from '../eval/location.json';
import validationSet from '../eval/validation.json';

// A text read once (analyzeText) must be read exactly as each function reads the text itself.
const NOW = new Date('2026-04-15T12:00:00Z');
const texts = [
  ...validationSet.map((c) => c.text),
  ...locationSet.map((c) => c.text),
  'My  tomato\u2019s leaves   are curling in Portland, OR',
  '',
];

describe('analyzeText', () => {
  it('finds the location and topics the detectors find in the text', () => {
    for (const text of texts) {
      const analysis = analyzeText(text);
      expect([text, analysis.location]).toEqual([text, detectLocation(text)]);
      expect([text, analysis.topics]).toEqual([text, detectTopics(text)]);
    }
  });

  it('validates and processes an analysis as its text', () => {
    const contexts = [{}, { zip_code: '97201', conversation: ['my tomatoes are wilting'] }];
    for (const text of [...validationSet.map((c) => c.text), ...texts.slice(-2)]) {
      const analysis = analyzeText(text);
      for (const context of contexts) {
        const byText = validateMessage(text, context, NOW);
        expect([text, validateMessage(analysis, context, NOW)]).toEqual([text, byText]);
        expect([text, processMessage(analysis, context, NOW)]).toEqual([
          text,
          processMessage(text, context, NOW),
        ]);
      }
    }
  });

  it('gives the advisor the same references with or without the analysis', () => {
    for (const { question, zipCode } of advisorSet.slice(0, 120)) {
      const request = { question, zipCode: zipCode ?? null, now: NOW };
      const plain = advisorReferences(request).map((r) => r.entryId);
      const shared = advisorReferences({ ...request, analysis: analyzeText(question) }).map((r) => r.entryId);
      expect([question, shared]).toEqual([question, plain]);
    }
  });
});
