// The advisor in a conversation and on messy texts: follow-ups that inherit the earlier turn's
// plant and topic, numbers and pronouns in texting, asking back (naming what was understood) when
// the answer found has nothing to do with the conversation, the advisor's index preloaded, and the
// advisor's modules free of import circles.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { adviseOffline, preloadAdvisor, preloadGardeningData } from '@sprout/gardening';
import { normalizeText } from '../src/advisor/knowledge/terms';
import { now, turns } from './chat';

describe('follow-ups keep the conversation', () => {
  it('an earlier question sets the context of a short follow-up', () => {
    // "the little ones at the base" after a ripe banana bunch are its suckers.
    const advice = adviseOffline({
      question: 'and the little ones coming up at the base?',
      history: turns('my banana bunch is ripe, what do i do after i cut it'),
      now,
    });
    expect(advice.followUp).toBe(true);
    expect(advice.kind).toBe('answer');
    expect(advice.entries).toEqual(['banana-suckers']);
  });

  it('a word of a longer plant name ("fruit") leaves the earlier plant the subject', () => {
    const advice = adviseOffline({
      question: "it's 2 years old and big but no fruit. can I make it flower?",
      history: turns('How do I grow a pineapple from a store-bought one?'),
      now,
    });
    expect(advice).toMatchObject({ kind: 'answer', entryId: 'pineapple', followUp: true });
    // Without the conversation, "no fruit" still counts as asked (dragon fruit is not the subject).
    expect(adviseOffline({ question: 'dragon fruit flowers but no fruit', now }).entryId).toBe(
      'dragon-fruit',
    );
  });

  it("a crop entry answers about the conversation's crop when the follow-up names none", () => {
    const advice = adviseOffline({
      question: 'could i plant more for the fall?',
      zipCode: '43215',
      history: turns('my green beans were great but now they quit flowering'),
      now: new Date('2025-07-20T12:00:00Z'),
    });
    expect(advice.entryId).toBe('crop-timing:bean');
    expect(advice.answer).toMatch(/sow beans by /);
  });

  it('naming the same plant again continues the earlier question', () => {
    const eat = adviseOffline({
      question: 'is it still ok to eat the squash?',
      history: turns('my squash leaves are covered in white powdery stuff'),
      now,
    });
    expect(eat).toMatchObject({ kind: 'answer', entryId: 'safe-to-eat-diseased', followUp: true });
  });

  it('a general word ("the soil") after a named plant keeps the earlier topic', () => {
    const advice = adviseOffline({
      question: 'should i put eggshells in the soil',
      history: turns('blossom end rot on my tomatoes'),
      now,
    });
    expect(advice.entryId).toBe('blossom-end-rot');
  });

  it('a longer reply opening with "so" and naming only general words keeps the earlier topic', () => {
    const advice = adviseOffline({
      question: 'so do i need to add calcium or crushed eggshells to my soil now',
      history: turns('the bottoms of my peppers went black and leathery'),
      now,
    });
    expect(advice).toMatchObject({ kind: 'answer', entryId: 'blossom-end-rot', followUp: true });
  });

  it('"the fence", a thing the advisor spoke of, is read with the conversation', () => {
    const advice = adviseOffline({
      question: 'how high should the fence be',
      history: turns('a moose keeps eating my young apple trees'),
      now,
    });
    expect(advice).toMatchObject({ kind: 'answer', entryId: 'moose', followUp: true });
    // Without the conversation it is no moose question.
    expect(adviseOffline({ question: 'how high should the fence be', now }).entryId).not.toBe('moose');
  });

  it('"what about X, how do I ..." is a new question about X, not the last one about X', () => {
    const advice = adviseOffline({
      question: 'what about my cauliflower, how do i keep it white',
      history: turns('my broccoli heads are tiny and already flowering'),
      now,
    });
    expect(advice).toMatchObject({ kind: 'answer', entryId: 'blanching' });
    expect(advice.answer).toMatch(/leaves over/);
  });
});

describe('texting', () => {
  it('keeps numbers before units as numbers, and reads "theyre" as a pronoun', () => {
    expect(adviseOffline({ question: 'my bed only gets 4 hrs of sun', now }).question).toBe(
      'my bed only gets 4 hours of sun',
    );
    expect(adviseOffline({ question: 'theyre only 2 years old', now }).question).toBe(
      'they are only 2 years old',
    );
    // A number alone still reads as texting: "how 2 prune".
    expect(adviseOffline({ question: 'how 2 prune roses', now }).question).toBe('how to prune roses');
  });

  it('keeps a decimal point inside a number', () => {
    expect(normalizeText('Soil test says pH 5.2.')).toBe('soil test says ph 5.2');
    expect(normalizeText('1.5 inches... then')).toBe('1.5 inches then');
  });

  it('a text unclear as a whole answers when each of its parts is clear on its own', () => {
    const advice = adviseOffline({
      question:
        'white fuzzy cottony clumps on my plumeria stems and the leaves are getting a black sooty coating',
      now,
    });
    expect(advice).toMatchObject({ kind: 'answer', entries: ['mealybugs', 'sooty-mold'] });
  });

  it('reads "+" between two questions as a break, as texting writes "and"', () => {
    const advice = adviseOffline({
      question:
        'squash bugs everywhere + my beans got holes + whats this orange ladybug looking thing on the beans??',
      now,
    });
    expect(advice.kind).toBe('answer');
    expect(advice.entries).toContain('mexican-bean-beetle');
  });

  it('answers "is it too late" first', () => {
    const advice = adviseOffline({ question: 'is it to late to plant potatos', zone: '5a', now });
    expect(advice.entryId).toBe('crop-timing:potato');
    expect(advice.answer).toMatch(/^Not too late/);
  });

  it('answers a sun question about a vegetable garden with the sun, not watering', () => {
    const advice = adviseOffline({ question: 'how much sun does a veggie garden need', now });
    expect(advice.entryId).toBe('sun-requirements');
  });
});

describe('start-up', () => {
  it('builds the advisor index ahead of the first question', () => {
    expect(preloadAdvisor()).toBeGreaterThan(250);
    expect(preloadGardeningData().advisorEntries).toBeGreaterThan(250);
  });
});

describe('module structure', () => {
  it('the advisor has no import circle (type imports included)', () => {
    const root = path.join(__dirname, '..', 'src');
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((d) => (d.isDirectory() ? files(path.join(dir, d.name)) : [path.join(dir, d.name)]))
        .filter((f) => f.endsWith('.ts'));
    const graph = new Map<string, string[]>();
    for (const file of files(root)) {
      const source = fs.readFileSync(file, 'utf8');
      const deps = [...source.matchAll(/(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'/g)]
        .map((m) => path.join(path.dirname(file), m[1] ?? ''))
        .map((d) => (fs.existsSync(`${d}.ts`) ? `${d}.ts` : path.join(d, 'index.ts')))
        .filter((d) => fs.existsSync(d));
      graph.set(file, deps);
    }
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push(
          [...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(root, f)).join(' -> '),
        );
        return;
      }
      state.set(file, 'open');
      for (const dep of graph.get(file) ?? []) visit(dep, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(circles).toEqual([]);
  });
});
