// Message analysis costs time linear in a text's length (a signed 100 KB text
// once took 9 s in a lookaround over the rest of the text at every position). The regex analyses are
// linear themselves: at 2 KB and 20 KB of texts built to trip sentence-wide gaps and lookarounds,
// linear time grows about 10 times, quadratic 100 times (the bound is loose, the best of five
// runs plus slack, so a busy machine does not fail it). The others read a bounded window
// (ANALYSIS_MAX_CHARS, an SMS's length): a 100 KB text is analysed as its first 1,600 characters.
import {
  ANALYSIS_MAX_CHARS,
  adviseOffline,
  analysisWindow,
  analyzeSentiment,
  detectLocation,
  detectSafetyConcern,
  detectTopics,
  isLocationRefusal,
  parseProfileCommand,
  processMessage,
  readLanguage,
  validateMessage,
} from '@sprout/gardening';

const repeat = (unit: string, length: number): string =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const WORDS =
  'how do I stop aphids on my tomatoes in Portland Oregon 97201 zone 8b clay soil water help please ! ? ' +
  'beginner when should moss lawn https://x.com/a sweet every year die again why does keep mix bleach ' +
  'inside roundup how much kill mushrooms eat zip';

/** Texts that trip sentence-wide gaps ("when should ... plant"), lookarounds and word lists. */
const TEXTS: Record<string, (length: number) => string> = {
  'word salad': (n) => repeat(`${WORDS} `, n),
  'when should': (n) => repeat('when should ', n),
  moss: (n) => repeat('moss ', n),
  'every year': (n) => repeat('every year ', n),
  'why does': (n) => repeat('why does ', n),
  'how much': (n) => repeat('how much ', n),
  'mix bleach': (n) => repeat('mix bleach and ', n),
  'no spaces': (n) => repeat('a', n),
  links: (n) => repeat('http://aaaaaaaaaaaaaaaaaaaa ', n),
  emoji: (n) => repeat('🌱', n),
  'zip then spaces': (n) => `zip ${repeat(' ', n - 5)}x`,
};

const NOW = new Date('2026-04-15T12:00:00Z');

/** This process's CPU time in ms: unlike wall time, it does not grow while a busy machine runs others. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The best of five runs, in CPU ms (each on a text of its own, so no cache answers). */
const timeOf = (analyse: (text: string) => unknown, text: string): number => {
  let best = Infinity;
  for (let i = 0; i < 5; i += 1) {
    const own = `${'vwxyz'[i]}${text.slice(1)}`;
    const started = cpuMs();
    analyse(own);
    best = Math.min(best, cpuMs() - started);
  }
  return best;
};

describe('regex analyses', () => {
  const LINEAR: Record<string, (text: string) => unknown> = {
    detectTopics: (t) => detectTopics(t),
    analyzeSentiment,
    detectSafetyConcern,
    parseProfileCommand,
  };

  it.each(Object.keys(LINEAR))('%s takes time linear in the length of the text', (name) => {
    const analyse = LINEAR[name] as (text: string) => unknown;
    analyse('When should I plant tomatoes in 97201?');
    const slow: string[] = [];
    for (const [kind, make] of Object.entries(TEXTS)) {
      const small = timeOf(analyse, make(2_000));
      const large = timeOf(analyse, make(20_000));
      if (large > 50 * small + 5) slow.push(`${kind}: ${small.toFixed(2)} ms -> ${large.toFixed(2)} ms`);
    }
    expect(slow).toEqual([]);
  });

  it('finds moss a lawn weed, before or after the lawn, and not elsewhere', () => {
    expect(detectTopics('moss is taking over my lawn')).toContain('weeds');
    expect(detectTopics('my grass is full of moss')).toContain('weeds');
    expect(detectTopics('moss on my roof')).not.toContain('weeds');
  });
});

describe('windowed analyses', () => {
  const WINDOWED: Record<string, (text: string) => unknown> = {
    validateMessage: (t) => ({ ...validateMessage(t, {}, NOW), timestamp: null }),
    processMessage: (t) => ({ ...processMessage(t, { zip_code: '97201' }, NOW).validation, timestamp: null }),
    detectLocation,
    isLocationRefusal,
    readLanguage,
    adviseOffline: (t) => {
      const { question, ...advice } = adviseOffline({ question: t, zipCode: '97201', now: NOW });
      return { ...advice, question: question.slice(0, 80) };
    },
  };

  it.each(Object.keys(WINDOWED))(
    '%s reads a long text as its first ANALYSIS_MAX_CHARS characters',
    (name) => {
      const analyse = WINDOWED[name] as (text: string) => unknown;
      for (const make of Object.values(TEXTS)) {
        const long = make(100_000);
        expect(analyse(long)).toEqual(analyse(long.slice(0, ANALYSIS_MAX_CHARS)));
      }
    },
  );

  it('analyses a 100 KB text as a job does in well under a second', () => {
    const analyseAll = (raw: string) => {
      const text = analysisWindow(raw);
      analyzeSentiment(text);
      detectTopics(text);
      processMessage(text, { zip_code: '97201' }, NOW);
      detectLocation(text);
      isLocationRefusal(text);
      adviseOffline({ question: text, zipCode: '97201', now: NOW });
    };
    analyseAll('When should I plant tomatoes in 97201?');
    for (const [kind, make] of Object.entries(TEXTS)) {
      const took = timeOf(analyseAll, make(100_000));
      expect({ kind, fast: took < 500 }).toEqual({ kind, fast: true });
    }
  });
});
