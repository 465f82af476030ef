// The retrieval advisor on questions written the way gardeners write them: symptoms without the
// pest's name, texting shorthand and misspellings, follow-ups, questions about two things, lists
// that depend on the region, and a clarifying question instead of an answer to another question.
import {
  adviseOffline,
  advisorReferences,
  blindOutcome,
  scoreBlindSet,
  validateMessage,
  type BlindItem,
} from '@sprout/gardening';
import { advisorRetriever, search } from '../src/advisor/retrieval/search';
import { now, turns } from './chat';

describe('reading the question', () => {
  it('finds a pest from the symptoms in plain words, without its name', () => {
    const advice = adviseOffline({ question: 'white cottony clumps along my hibiscus stems', now });
    expect(advice).toMatchObject({ kind: 'answer', entryId: 'mealybugs' });
    expect(
      adviseOffline({ question: 'shiny green and copper beetles eating my roses to lace', now }).entryId,
    ).toBe('japanese-beetles');
  });

  it('reads texting shorthand and misspellings', () => {
    const advice = adviseOffline({ question: 'hw do i keep squirells outta my bulbs', now });
    expect(advice.question).toBe('how do i keep squirrels out of my bulbs');
    expect(advice.entryId).toBe('rodents');
  });
});

describe('matching words', () => {
  const ids = (text: string): string[] =>
    search({ text, crop: false, region: null, season: null }, advisorRetriever(), 400).map((h) => h.entry.id);

  it('matches near spellings only of words the knowledge does not write', () => {
    // "ground" is written, so "round" (the flea beetles' round holes) is another word, not a misspelling.
    expect(ids('ground')).not.toContain('flea-beetles');
    expect(ids('grownd')).toContain('ground-nesting-bees-wasps');
  });
});

describe('asking back instead of answering another question', () => {
  it('asks back when a long question is answered by an entry about two of its words, with a close rival', () => {
    const long = adviseOffline({
      question: 'I want a fruit tree for my small yard in Miami, full sun. Ideas?',
      now,
    });
    expect(long).toMatchObject({ kind: 'clarify', matched: false });
    expect(long.answer).toMatch(/^Is this about|I want to answer the right question/);
    // A short question saying little more than the entry's words is answered.
    expect(adviseOffline({ question: 'how do i overwinter my dahlias', now }).kind).toBe('answer');
  });

  it('says explicitly that it asks, naming the plant it understood', () => {
    const vague = adviseOffline({ question: 'whats wrong with my plant', now });
    expect(vague).toMatchObject({ kind: 'clarify', matched: false, topic: 'general' });
    const unknown = adviseOffline({ question: 'my frobnitz has zorbles', now });
    expect(unknown.kind).toBe('clarify');
  });

  it('answers both subjects of a question in two parts', () => {
    const advice = adviseOffline({
      question: 'potted fig tree what do i do w it for winter?? also should i prune it',
      zipCode: '03301',
      now,
    });
    expect(advice.kind).toBe('answer');
    expect(advice.entries).toEqual(['prune-figs', 'fig-hardiness']);
    expect(advice.answer).toMatch(/garage/);
    expect(advice.answer).toMatch(/late winter/);
    // One subject, one answer.
    expect(adviseOffline({ question: 'can i grow rosemary outside year round', now }).entries).toHaveLength(
      1,
    );
  });
});

describe('texts in two parts', () => {
  it('answers the part the best entry for the whole text leaves out', () => {
    // The whole text reaches spacing, which says nothing of "when": that part is answered on its own.
    const spacing = adviseOffline({
      question: 'when do i plant tomatoes n peppers here and how far apart',
      zone: '7a',
      now,
    });
    expect(spacing.entries).toEqual(['crop-spacing:tomato', 'crop-timing:tomato']);
    expect(spacing.answer).toMatch(/18-24 inches/);
    expect(spacing.answer).toMatch(/zone 7a/);
    const okra = adviseOffline({
      question: 'my okra pods get all hard n woody b4 i pick em?? also can i still plant more okra now',
      zone: '8a',
      now,
    });
    expect(okra.entries).toEqual(['crop-harvest:okra', 'crop-timing:okra']);
    // A part the answer is about needs nothing more.
    expect(adviseOffline({ question: 'how far apart do i plant tomatoes and peppers', now }).entries).toEqual(
      ['crop-spacing:tomato'],
    );
  });
});

describe('follow-ups', () => {
  it('inherit the plant and topic of the earlier turns', () => {
    const flopped = adviseOffline({
      question: 'ok they flopped over, now what',
      history: turns('my tomato seedlings are tall and skinny'),
      now,
    });
    expect(flopped).toMatchObject({ kind: 'answer', entryId: 'leggy-seedlings', followUp: true });
    const pots = adviseOffline({
      question: 'can they go in pots?',
      history: turns('how do i grow tomatoes'),
      now,
    });
    expect(pots.entryId).toBe('crop-container:tomato');
    const mildew = adviseOffline({
      question: 'what should I do?',
      history: turns('white powder on my squash leaves'),
      now,
    });
    expect(mildew.entryId).toBe('powdery-mildew');
  });

  it('are never refused as off-topic in a gardening conversation', () => {
    const conversation = ['my tomato seedlings are tall and skinny'];
    expect(validateMessage('ok they flopped over, now what', { conversation }, now).responseType).toBe(
      'gardening_question',
    );
    expect(validateMessage('ok they flopped over, now what', {}, now).responseType).toBe('non_gardening');
  });
});

describe('lists chosen by the region', () => {
  const ask = (question: string, zipCode: string, zone?: string): string =>
    adviseOffline({ question, zipCode, zone: zone ?? null, now }).answer;

  it('names natives, grasses and crops of the gardener region', () => {
    expect(ask('want to plant hawaiian natives in my yard in hilo, whats easy', '96720', '11a')).toMatch(
      /naupaka|ilima|ohia/,
    );
    const anchorage = ask('what grass seed actually works in anchorage? lawn is patchy', '99507', '4b');
    expect(anchorage).toMatch(/bluegrass/);
    expect(anchorage).not.toMatch(/Bermuda|zoysia|St\. Augustine/);
    expect(ask('what root crops can i grow in my backyard in puerto rico', '00725', '12a')).toMatch(/yuca/);
    expect(ask('natives for monarchs in chicago', '60657')).toMatch(/milkweed/);
    expect(ask('what vegetables grow in a short growing season', '99709', '2b')).toMatch(/greenhouse|tunnel/);
    expect(ask('tall fescue or zoysia for norfolk?', '23510')).toMatch(/transition/);
  });

  it('gives a model the same entries as reference, filled in for the zone', () => {
    const refs = advisorReferences({ question: 'when should I set out tomato plants', zone: '6a', now });
    expect(refs[0]).toMatchObject({ entryId: 'crop-timing:tomato' });
    expect(refs[0]?.text).toMatch(/zone 6a .*tomato transplants/);
  });
});

describe('the blind-set scorer', () => {
  const item = (over: Partial<BlindItem>): BlindItem => ({
    id: 'x',
    category: 'diagnosis',
    state: 'FL',
    zipCode: '33606',
    now: '2025-06-03',
    question: 'white cottony clumps along my hibiscus stems',
    expect: [['mealybug'], ['alcohol', 'soap']],
    ...over,
  });

  it('tells right, abstained and wrong-topic apart', () => {
    expect(blindOutcome(item({}), { text: 'Mealybugs: dab with alcohol.', abstained: false })).toBe('right');
    expect(blindOutcome(item({}), { text: 'Mealybugs: dab with alcohol.', abstained: true })).toBe(
      'abstained',
    );
    expect(blindOutcome(item({}), { text: 'Aphids: spray with soap.', abstained: false })).toBe(
      'wrong-topic',
    );
    expect(
      blindOutcome(item({ avoid: ['neem'] }), { text: 'Mealybugs: soap or neem.', abstained: false }),
    ).toBe('wrong-topic');
  });

  it('scores the product per category and per region, refusals counting as wrong', () => {
    const report = scoreBlindSet([
      item({}),
      item({
        id: 'y',
        category: 'followup',
        zipCode: '99501',
        state: 'AK',
        question: 'tell me a joke',
        expect: [['x']],
      }),
      item({ id: 'z', category: 'messy', question: 'whats wrong with my plant', expect: [['x']] }),
    ]);
    expect(report).toMatchObject({ total: 3, right: 1, abstained: 1, wrongTopic: 1 });
    expect(report.byRegion.map((l) => l.kind)).toEqual(['Alaska', 'Southeast']);
    expect(report.byCategory.find((l) => l.kind === 'followup')).toMatchObject({ wrongTopic: 1 });
  });
});
