import { scoreBlindSet, type BlindItem } from '@sprout/gardening';
import first from './fixtures/breadth-questions.json';
import second from './fixtures/breadth-questions-2.json';
import third from './fixtures/breadth-questions-3.json';
import fourth from './fixtures/breadth-questions-4.json';
import fifth from './fixtures/breadth-questions-5.json';
import sixth from './fixtures/breadth-questions-6.json';
import seventh from './fixtures/breadth-questions-7.json';
import eighth from './fixtures/breadth-questions-8.json';
import ninth from './fixtures/breadth-questions-9.json';
import tenth from './fixtures/breadth-questions-10.json';
import eleventh from './fixtures/breadth-questions-11.json';
import twelfth from './fixtures/breadth-questions-12.json';
import thirteenth from './fixtures/breadth-questions-13.json';

// Questions written from horticultural experience across every US climate, then answered by new
// entries: a floor keeps later edits of the knowledge from losing whole subjects again.
describe('breadth questions', () => {
  const items = [
    ...first,
    ...second,
    ...third,
    ...fourth,
    ...fifth,
    ...sixth,
    ...seventh,
    ...eighth,
    ...ninth,
    ...tenth,
    ...eleventh,
    ...twelfth,
    ...thirteenth,
  ] as BlindItem[];
  const report = scoreBlindSet(items);

  it('answers most of them right and few with the wrong subject', () => {
    expect(report.right / report.total).toBeGreaterThanOrEqual(0.85);
    expect(report.wrongTopic / report.total).toBeLessThanOrEqual(0.1);
  });

  it('answers each subject area at least seven times in ten', () => {
    const weak = report.byCategory.filter((c) => c.right / c.total < 0.7).map((c) => c.kind);
    expect(weak).toEqual([]);
  });
});
