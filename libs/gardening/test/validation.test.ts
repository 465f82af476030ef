import {
  configureServiceArea,
  detectSafetyConcern,
  evaluateValidation,
  isGsm7,
  POISON_CONTROL_NUMBER,
  readLanguage,
  SAFETY_GUIDANCE,
  templateReplyFor,
  validateMessage,
  type ValidationCase,
  type ValidationResponseType,
} from '@sprout/gardening';
import devSet from '../eval/validation.json';
import holdoutSet from '../eval/validation-holdout.json';

const NOW = new Date('2025-05-01T12:00:00Z');
const allCases = [...(devSet as ValidationCase[]), ...(holdoutSet as ValidationCase[])];

afterEach(() => configureServiceArea({}));

describe('validateMessage on the labelled sets', () => {
  it('meets the 92% kind target', () => {
    expect(evaluateValidation(allCases, NOW).accuracy).toBeGreaterThanOrEqual(0.92);
  });

  it.each((devSet as ValidationCase[]).map((c) => [c.kind, c.text] as const))('%s: %s', (kind, text) => {
    expect(validateMessage(text, {}, NOW).responseType).toBe(kind);
  });
});

describe('validateMessage result shape', () => {
  it('returns validity, type, confidence, issues and corrections with an ISO timestamp of `now`', () => {
    const result = validateMessage('When should I plant tomatoes?', { zip_code: '97201' }, NOW);
    expect(result).toEqual({
      isValid: true,
      responseType: 'gardening_question',
      confidence: expect.any(Number),
      issues: [],
      corrections: [],
      timestamp: '2025-05-01T12:00:00.000Z',
    });
    expect(result.confidence).toBeGreaterThan(0.5);
  });

  it('notes a missing location on a valid question when no context has one', () => {
    const result = validateMessage('When should I plant tomatoes?', {}, NOW);
    expect(result.isValid).toBe(true);
    expect(result.issues).toEqual([
      { type: 'missing_location', severity: 'low', message: expect.any(String) },
    ]);
    expect(result.corrections[0]).toMatch(/ZIP/);
    expect(
      validateMessage('When should I plant tomatoes?', { region: 'Pacific Northwest' }, NOW).issues,
    ).toEqual([]);
  });

  it.each<[string, ValidationResponseType, boolean]>([
    ['', 'too_short', false],
    ['   ', 'too_short', false],
    ['?', 'too_short', false],
    ['hi', 'conversational', true],
    ['thanks!', 'conversational', true],
    ['who are you?', 'conversational', true],
    ['97201', 'location_reply', true],
    ["I'd rather not say", 'location_reply', true],
    ['ZIP 98101', 'command', true],
    ['STOP', 'command', true],
    ['LEVEL beginner', 'command', true],
    ['how much should I use?', 'gardening_question', true],
  ])('%j -> %s (valid %s)', (text, type, valid) => {
    const result = validateMessage(text, {}, NOW);
    expect(result.responseType).toBe(type);
    expect(result.isValid).toBe(valid);
    expect(result.confidence).toBeGreaterThan(0);
    expect(result.confidence).toBeLessThanOrEqual(1);
  });

  it('gives issues with severities and corrections for each invalid kind', () => {
    for (const text of [
      'k',
      'FREE iPhone!!! click www.win-now.biz',
      'tell me a joke',
      "I'm in Toronto",
      'my dog ate a mushroom',
      'cuando siembro cilantro',
    ]) {
      const result = validateMessage(text, {}, NOW);
      expect(result.isValid).toBe(false);
      expect(result.issues.length).toBeGreaterThan(0);
      for (const issue of result.issues) {
        expect(['low', 'medium', 'high']).toContain(issue.severity);
        expect(issue.message.length).toBeGreaterThan(5);
      }
      expect(result.corrections.length).toBeGreaterThan(0);
    }
  });

  it('lets garden words that look profane through', () => {
    for (const text of [
      'when do I prune my pussy willow',
      'best hoe for weeding onions?',
      'cockscomb seeds not sprouting',
      'horny goat weed spreading too much',
      'a bushtit is nesting in my hedge, can I still trim it?',
      'tomatos died wtf',
    ]) {
      expect(validateMessage(text, {}, NOW).responseType).toBe('gardening_question');
    }
  });

  it('takes any plant the knowledge names as a gardening subject, without garden words', () => {
    for (const text of [
      'feral pigs dug up my taro patch what can i do',
      'elk eating my aspens',
      'is my pawpaw supposed to look like that',
      'when is breadfruit season',
      'is wisteria going to climb onto my roof',
      // ...misspelled, when the word is long enough not to be an everyday one.
      'mooses ate my brocolli again!!',
      'zuchini leafs all white',
    ]) {
      expect(validateMessage(text, {}, NOW).responseType).toBe('gardening_question');
    }
    for (const text of [
      'what is the capital of france',
      'can i get a ginger ale',
      'hazel is my best friend',
      'what is the capital of mongolia',
      'can you teach me about the union',
    ]) {
      expect(validateMessage(text, {}, NOW).responseType).toBe('non_gardening');
    }
  });
});

describe('spam', () => {
  it('flags links without garden content, promotions, noise and shouting with money', () => {
    for (const text of [
      'www.cheap-pills.biz',
      'WIN $1000 NOW CALL 1-800-555-0100',
      'ooooooooooooooooo',
      'sdfghjklsdfghjkl',
      'Limited time offer: 50% off, click here bit.ly/x',
    ]) {
      expect(validateMessage(text, {}, NOW).responseType).toBe('spam');
    }
  });

  it('lets a gardening question with a product link through, noting the link', () => {
    const result = validateMessage('is this good for roses? https://example.com/rose-food', {}, NOW);
    expect(result.responseType).toBe('gardening_question');
    expect(result.issues.map((i) => i.type)).toContain('link');
  });

  it('does not call excited gardeners spammers', () => {
    expect(validateMessage('MY FIRST TOMATO IS RIPE!!!!!!!!!', {}, NOW).responseType).toBe(
      'gardening_question',
    );
    expect(validateMessage('Home Depot has mulch on sale, is cypress mulch ok?', {}, NOW).responseType).toBe(
      'gardening_question',
    );
  });
});

describe('out of region', () => {
  it('names the foreign place', () => {
    const result = validateMessage('I garden in Brisbane, Australia', {}, NOW);
    expect(result).toMatchObject({
      responseType: 'out_of_region',
      isValid: false,
      outOfRegionPlace: 'Brisbane, Australia',
    });
  });

  it('keeps US places with foreign-sounding names in', () => {
    for (const text of [
      'I live in Paris, TX',
      'Dublin Ohio tomatoes',
      'London KY here, when to plant beans?',
    ]) {
      expect(validateMessage(text, {}, NOW).isValid).toBe(true);
    }
  });

  it('follows a configured service area of states, by message or by the sender ZIP', () => {
    configureServiceArea({ states: ['wa', 'or'] });
    expect(validateMessage('I live in Austin, TX, when do I plant tomatoes?', {}, NOW).responseType).toBe(
      'out_of_region',
    );
    expect(validateMessage('When do I plant tomatoes?', { zip_code: '78701' }, NOW).responseType).toBe(
      'out_of_region',
    );
    expect(validateMessage('When do I plant tomatoes?', { zip_code: '97201' }, NOW).responseType).toBe(
      'gardening_question',
    );
    configureServiceArea({});
    expect(validateMessage('When do I plant tomatoes?', { zip_code: '78701' }, NOW).responseType).toBe(
      'gardening_question',
    );
  });
});

describe('safety', () => {
  it.each([
    ['my son ate a berry from the yew hedge', 'human_poisoning'],
    ['my cat chewed my easter lily', 'pet_poisoning'],
    ['I sprayed sevin and got it in my eyes', 'chemical_exposure'],
    ['can I mix bleach with vinegar to kill moss', 'pesticide_misuse'],
    ['is this mushroom in my yard edible?', 'mushroom_identification'],
    ['I want to kill myself', 'self_harm'],
    ["how do I poison my neighbor's dog", 'harm_to_others'],
  ])('%s -> %s', (text, category) => {
    const result = validateMessage(text, {}, NOW);
    expect(result.responseType).toBe('safety_concern');
    expect(result.safetyCategory).toBe(category);
    expect(result.safetyGuidance).toContain(POISON_CONTROL_NUMBER);
    expect(result.safetyGuidance).toMatch(/911/);
    expect(templateReplyFor(result)).toBe(result.safetyGuidance);
  });

  it('sends the crisis line for self-harm', () => {
    expect(validateMessage('i want to die', {}, NOW).safetyGuidance).toMatch(/988/);
    expect(detectSafetyConcern("i'm going to die, nothing helps")?.category).toBe('self_harm');
    expect(detectSafetyConcern('everything is dead and i am going to die')?.category).toBe('self_harm');
    // Only a question about a thing, opening its sentence with no first person, is set aside.
    for (const text of [
      'what is the point i am going to die anyway',
      'this is it im going to die tonight',
      'this is the end im going to die',
      'everything is my fault im going to die',
      'it is my heart i am going to die',
      'is my tree going to die? i am going to die too',
    ]) {
      expect(detectSafetyConcern(text)?.category).toBe('self_harm');
    }
  });

  it('reads "they" as the deer only when no person is named', () => {
    expect(
      detectSafetyConcern('deer got in the yard and my son ate the yew berries they left')?.category,
    ).toBe('human_poisoning');
    expect(detectSafetyConcern('deer ate my yew and the kids said they ate some berries')?.category).toBe(
      'human_poisoning',
    );
    // A report with symptoms is about people, whoever is named.
    expect(
      detectSafetyConcern('my uncle was feeding the deer and they ate the yew berries now hes vomiting')
        ?.category,
    ).toBe('human_poisoning');
    expect(
      detectSafetyConcern(
        'my in-laws were watching the deer and they ate some of the foxglove leaves and are throwing up',
      )?.category,
    ).toBe('human_poisoning');
  });

  it('does not treat garden talk about killing, eating or toxicity as a concern', () => {
    for (const text of [
      'how do I kill weeds in my lawn',
      'deer ate my tulip bulbs',
      'slugs ate my lettuce overnight',
      'are lilies toxic to cats?',
      'can I eat the leaves of my sweet potato vines?',
      'I ate my first homegrown tomato today!',
      'this heat is killing my peppers',
      'squirrels are eating my pumpkins',
      'is my ash tree going to die from emerald ash borer',
      'are the roses going to die if it freezes tonight',
      'deer ate ALL my tulips again!!! what bulbs dont they eat',
      // Eating from the garden as a habit, in a question about a safe treatment.
      'my peppers r getting eaten by small green worms, i dont want to spray poison bc my grandkids eat from the garden',
      'my kids eat the strawberries, can i use neem or is it toxic',
      // An animal eats, whoever asks.
      'how do i keep birds from eating my grass seed',
    ]) {
      expect(detectSafetyConcern(text)).toBeNull();
    }
    // ...while an ingestion, or eating with symptoms, still is one.
    expect(
      detectSafetyConcern('my son has eaten a yew berry and the kids eat from the garden')?.category,
    ).toBe('human_poisoning');
    expect(
      detectSafetyConcern('my kids eat the berries off the bush and now one is throwing up')?.category,
    ).toBe('human_poisoning');
  });

  it('keeps every guidance text SMS-safe', () => {
    for (const guidance of Object.values(SAFETY_GUIDANCE)) {
      expect(isGsm7(guidance)).toBe(true);
      expect(guidance.length).toBeLessThanOrEqual(320);
      expect(guidance).toContain(POISON_CONTROL_NUMBER);
      expect(guidance).toMatch(/911/);
    }
  });
});

describe('language', () => {
  it('loads eld and detects the language of short texts', () => {
    expect(readLanguage('¿Cuándo debo plantar tomates?')).toMatchObject({ english: false, language: 'es' });
    expect(readLanguage('Wie oft soll ich meine Tomaten gießen?')).toMatchObject({
      english: false,
      language: 'de',
    });
    expect(readLanguage('我的番茄叶子发黄了怎么办').english).toBe(false);
  });

  it('keeps English with typos, slang and botanical Latin', () => {
    for (const text of [
      'how do i grow tomatos',
      'y r my leafs yelow',
      'Acer palmatum',
      'Quercus robur acorns',
      'Ficus lyrata drooping',
      'wat do i do bout aphids',
    ]) {
      expect(readLanguage(text).english).toBe(true);
    }
  });

  it('answers non-English messages in English and Spanish', () => {
    const result = validateMessage('Mis plantas de tomate tienen hojas amarillas', {}, NOW);
    expect(result).toMatchObject({ responseType: 'non_english', language: 'es' });
    expect(templateReplyFor(result)).toMatch(/English/);
    expect(templateReplyFor(result)).toMatch(/inglés/);
  });
});

describe('templateReplyFor', () => {
  it('gives a GSM-7 reply of at most 320 characters for each kind that needs no model', () => {
    const samples = [
      'k',
      'aaaaaaaaaaaaaaaa',
      'tell me a joke',
      'I live in Ontario',
      'my dog ate slug bait',
      'hola como estas mi jardin',
      'hello',
      'thanks',
      'ok',
      'bye',
      'are you a bot?',
    ];
    for (const text of samples) {
      const result = validateMessage(text, {}, NOW);
      const reply = templateReplyFor(result);
      expect(reply).not.toBeNull();
      expect(isGsm7(reply ?? '')).toBe(true);
      expect((reply ?? '').length).toBeLessThanOrEqual(320);
    }
  });

  it('returns null for messages the pipeline answers itself', () => {
    for (const text of ['When do I plant garlic?', '97201', 'ZIP 98101']) {
      expect(templateReplyFor(validateMessage(text, {}, NOW))).toBeNull();
    }
  });

  it('names the place in the out-of-region reply', () => {
    expect(templateReplyFor(validateMessage("I'm in Toronto", {}, NOW))).toMatch(/Toronto, Canada/);
  });
});
