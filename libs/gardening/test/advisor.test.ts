import { adviseOffline, CROPS, evaluateAdvisor, isGsm7 } from '@sprout/gardening';
import { buildContext } from '../src/advisor/context';
import { KNOWLEDGE_BASE } from '../src/advisor/knowledge-base';
import { cropTimingAnswer, whatToPlantAnswer } from '../src/advisor/planting';
import advisorSet from '../eval/advisor.json';

const ZONES = [
  null,
  '3a',
  '4b',
  '5a',
  '6a',
  '6b',
  '7a',
  '7b',
  '8a',
  '8b',
  '9a',
  '9b',
  '10a',
  '10b',
  '11a',
  '13b',
];
const DATES = [
  '2025-01-05',
  '2025-02-20',
  '2025-04-01',
  '2025-05-15',
  '2025-07-04',
  '2025-08-20',
  '2025-10-01',
  '2025-11-15',
  '2025-12-28',
];
const LEVELS = [null, 'beginner', 'intermediate', 'advanced'];

/** Why a text is not a sendable SMS answer, or null when it is. */
function smsProblem(text: string): string | null {
  if (text.length < 40) return `too short (${text.length})`;
  if (text.length > 320) return `too long (${text.length})`;
  if (!isGsm7(text)) return 'not GSM-7';
  if (/undefined|null|NaN|\$\{/.test(text)) return 'template leak';
  return null;
}

function expectSms(text: string): void {
  expect(smsProblem(text)).toBeNull();
}

const contexts = ZONES.flatMap((zone) =>
  DATES.flatMap((date) =>
    LEVELS.map((level) =>
      buildContext({
        question: 'tomatoes in shade garlic dahlias moles succulent',
        zone,
        experienceLevel: level,
        zipCode: zone ? null : '97201',
        now: new Date(`${date}T12:00:00Z`),
      }),
    ),
  ),
);

describe('offline advisor coverage', () => {
  it('knows at least 60 distinct questions', () => {
    expect(KNOWLEDGE_BASE.length + CROPS.length).toBeGreaterThanOrEqual(60);
    expect(KNOWLEDGE_BASE.length).toBeGreaterThanOrEqual(60);
    expect(new Set(KNOWLEDGE_BASE.map((e) => e.id)).size).toBe(KNOWLEDGE_BASE.length);
  });

  it('keeps every knowledge-base answer GSM-7 and within 320 characters for every zone, date and level', () => {
    const problems: string[] = [];
    for (const entry of KNOWLEDGE_BASE) {
      for (const ctx of contexts) {
        const problem = smsProblem(entry.answer(ctx));
        if (problem)
          problems.push(
            `${entry.id} zone ${ctx.zone} ${ctx.today.toISOString().slice(0, 10)} ${ctx.level}: ${problem}`,
          );
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps every crop timing answer GSM-7 and within 320 characters, for every mode, zone and date', () => {
    const problems: string[] = [];
    for (const crop of CROPS) {
      for (const zone of ZONES) {
        for (const date of DATES) {
          for (const mode of ['plant', 'indoor', 'grow'] as const) {
            const ctx = buildContext({
              question: `when do i plant ${crop.name}`,
              zone,
              experienceLevel: 'beginner',
              now: new Date(`${date}T12:00:00Z`),
            });
            const problem = smsProblem(cropTimingAnswer(crop, ctx, mode));
            if (problem) problems.push(`${crop.name} ${mode} zone ${zone} ${date}: ${problem}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps "what can I plant" answers SMS-safe for every zone and month', () => {
    const problems: string[] = [];
    for (const zone of ZONES) {
      for (let month = 0; month < 12; month++) {
        const from = new Date(Date.UTC(2025, month, 1));
        const ctx = buildContext({ question: 'what can i plant now', zone, now: from });
        const problem = smsProblem(
          whatToPlantAnswer(ctx, { from, to: new Date(Date.UTC(2025, month, 21)) }, 'now'),
        );
        if (problem) problems.push(`zone ${zone} month ${month + 1}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers each entry when asked in its own words', () => {
    const samples: Record<string, string> = {
      aphids: 'how do i get rid of aphids',
      slugs: 'slugs are eating everything',
      deer: 'deer keep eating my garden',
      'powdery-mildew': 'my squash leaves have powdery mildew',
      'compost-start': 'how do I make compost',
      'prune-roses': 'when do i prune roses',
      'soil-test': 'where can I get a soil test',
      'mulch-trees': 'how much mulch around a tree',
      'frost-protection': 'a freeze is coming, how do I protect my garden',
      'frost-dates': 'when is my last frost',
      hydroponics: 'how do I start hydroponics',
      'leggy-seedlings': 'my seedlings are leggy',
      ants: 'ants all over my garden beds',
      'tomato-suckers': 'should I pinch tomato suckers',
      'lawn-shade': 'what grass grows in shade',
      'holiday-cactus': 'my christmas cactus never blooms',
      'fall-cleanup': 'how do I winterize my vegetable garden',
      'fruit-tree-no-fruit': 'my pear tree has no pears',
      'yellow-leaves-general': 'yellow leaves on my cucumbers',
    };
    for (const [id, question] of Object.entries(samples)) {
      expect(adviseOffline({ question, zone: '6b', now: new Date('2025-03-10T12:00:00Z') }).entryId).toBe(id);
    }
  });
});

describe('adviseOffline', () => {
  it('meets the labelled advisor set', () => {
    const report = evaluateAdvisor(advisorSet);
    expect(report.failures).toEqual([]);
  });

  it('names the weeks after the last frost with dates for tomatoes in 97201', () => {
    const advice = adviseOffline({
      question: 'when do I plant tomatoes?',
      zipCode: '97201',
      now: new Date('2025-02-01T12:00:00Z'),
    });
    expect(advice).toMatchObject({ topic: 'planting schedule', matched: true });
    expect(advice.answer).toContain('zone 8b');
    expect(advice.answer).toContain('last frost ~Mar 14');
    expect(advice.answer).toContain('Mar 21-Apr 4');
    expect(advice.answer).toMatch(/nights stay above 50F/);
  });

  it('adapts planting answers to the date: now, later, too late', () => {
    const ask = (date: string): string =>
      adviseOffline({ question: 'when should I plant beans', zone: '6a', now: new Date(`${date}T12:00:00Z`) })
        .answer;
    expect(ask('2025-02-01')).toMatch(/sow beans Apr 24-May 8/);
    expect(ask('2025-04-30')).toMatch(/^Now's the time/);
    expect(ask('2025-07-01')).toMatch(/late but not too late/);
    expect(ask('2025-10-01')).toMatch(/too late .* Next spring/);
  });

  it('offers fall planting for cool crops after spring', () => {
    expect(
      adviseOffline({ question: 'when to plant lettuce', zone: '6a', now: new Date('2025-07-20T12:00:00Z') })
        .answer,
    ).toMatch(/fall crop.*Aug 25-Sep 15/);
  });

  it('gives warm-climate timing in zones 10 and up', () => {
    expect(adviseOffline({ question: 'when do I plant tomatoes', zone: '10b' }).answer).toMatch(/zones 10\+/);
  });

  it('asks for a ZIP when the location is unknown', () => {
    expect(adviseOffline({ question: 'when do I plant peppers' }).answer).toMatch(/ZIP/);
  });

  it('adapts to experience level', () => {
    const beginner = adviseOffline({
      question: 'when do I plant tomatoes',
      zone: '7a',
      experienceLevel: 'beginner',
      now: new Date('2025-01-10T12:00:00Z'),
    });
    expect(beginner.answer).toMatch(/New to this\?/);
    const other = adviseOffline({
      question: 'when do I plant tomatoes',
      zone: '7a',
      experienceLevel: 'advanced',
      now: new Date('2025-01-10T12:00:00Z'),
    });
    expect(other.answer).not.toMatch(/New to this\?/);
  });

  it('adapts seasonal answers to the season', () => {
    const summer = adviseOffline({
      question: 'when should I prune my roses',
      zone: '6a',
      now: new Date('2025-07-10T12:00:00Z'),
    });
    expect(summer.answer).toMatch(/^In summer just deadhead/);
  });

  it('does not answer with an entry for a different plant group', () => {
    const entryFor = (question: string): string => adviseOffline({ question, zone: '6b' }).entryId;
    expect(entryFor('my tomatoes are drooping')).not.toMatch(/^houseplant/);
    expect(entryFor('yellow leaves on squash')).not.toMatch(/pothos|bulbs/);
    expect(entryFor('what shrubs can I plant near my house')).not.toBe('companion-tomatoes');
    expect(entryFor('no fruit on my apple tree')).not.toBe('peppers-tomatoes-no-fruit');
    expect(entryFor('my green beans are ready')).not.toBe('harvest-tomatoes');
  });

  it('asks a clarifying question when nothing matches', () => {
    for (const question of ['what is wrong with it', 'help', 'hmm my plant']) {
      const advice = adviseOffline({ question });
      expect(advice).toMatchObject({ topic: 'general', matched: false });
      expect(advice.answer).toMatch(/Tell me the plant/);
      expectSms(advice.answer);
    }
  });

  it('always returns SMS-safe text, whatever the input', () => {
    for (const question of [
      '',
      '🌱🌱🌱',
      'x'.repeat(2000),
      'when do I plant “tomatoes” — and peppers…?',
      'ÀÉÎÕÜ?',
    ]) {
      const advice = adviseOffline({ question, zone: '7b' });
      expect(isGsm7(advice.answer)).toBe(true);
      expect(advice.answer.length).toBeLessThanOrEqual(320);
    }
  });
});
