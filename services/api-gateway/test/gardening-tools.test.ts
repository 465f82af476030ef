import { MISSING_MESSAGE, type ProcessingResult } from '@sprout/contracts';
import {
  LOCATION_TEST_RATE_LIMIT,
  TOO_MANY_LOCATION_TESTS,
} from '../src/gardening-tools/gardening-tools.controller';
import { useClosable } from '@sprout/testing';
import { startSignedIn, expectStatusMessage, clientIps } from './support/gateway';

const gw = useClosable(() => startSignedIn());
const nextIp = clientIps(2);

const post = (url: string, payload: unknown, options: { cookie?: string; ip?: string } = {}) =>
  gw.app.inject({
    method: 'POST',
    url,
    headers: {
      'x-forwarded-for': options.ip ?? nextIp(),
      ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
      ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload === undefined ? {} : { payload: payload as string | object }),
  });

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const validationShape = {
  isValid: expect.any(Boolean),
  responseType: expect.any(String),
  confidence: expect.any(Number),
  issues: expect.any(Array),
  corrections: expect.any(Array),
  timestamp: expect.stringMatching(ISO_TIME),
};

/** Bodies every tester rejects with a 400 naming the message field. */
/** Bodies without a usable message, and the 400's message: the prompt, or the field and what is wrong. */
const BAD_MESSAGE_BODIES: ReadonlyArray<[string, unknown, string]> = [
  ['no message', {}, MISSING_MESSAGE],
  ['an empty message', { message: '' }, MISSING_MESSAGE],
  ['a blank message', { message: '   \n ' }, MISSING_MESSAGE],
  ['a number', { message: 42 }, MISSING_MESSAGE],
  ['null', { message: null }, MISSING_MESSAGE],
  ['an over-long message', { message: 'a'.repeat(1601) }, 'message: must be at most 1600 characters'],
];

describe('POST /api/test-location', () => {
  const testLocation = (payload: unknown, ip?: string) =>
    post('/api/test-location', payload, ip === undefined ? {} : { ip });

  it('is public: answers without a session', async () => {
    const res = await testLocation({ message: 'My zip is 97201' });
    expect(res.statusCode).toBe(200);
  });

  it('reads a ZIP, with its place and zone', async () => {
    const res = await testLocation({ message: 'My zip is 97201' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      hasLocation: true,
      location: expect.stringContaining('97201'),
      confidence: expect.any(Number),
      locationType: 'zip',
      refusedLocation: false,
      zipCode: '97201',
      city: 'Portland',
      state: 'OR',
      hardinessZone: expect.stringMatching(/^\d{1,2}[ab]$/),
    });
    expect(res.json().confidence).toBeGreaterThan(0.5);
    expect(res.json().confidence).toBeLessThanOrEqual(1);
  });

  it('reads a city with its state', async () => {
    const res = await testLocation({ message: 'I live in Austin, Texas' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      hasLocation: true,
      location: expect.stringContaining('Austin'),
      locationType: 'city_state',
      refusedLocation: false,
      city: 'Austin',
      state: 'TX',
    });
  });

  it('reads a region people use', async () => {
    const res = await testLocation({ message: "I'm in the Pacific Northwest" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      hasLocation: true,
      location: 'Pacific Northwest',
      locationType: 'region',
      refusedLocation: false,
    });
  });

  it('marks a refusal', async () => {
    const res = await testLocation({ message: "I'd rather not say" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      hasLocation: false,
      location: null,
      locationType: 'refused',
      refusedLocation: true,
    });
  });

  it('finds no location in a vague phrase', async () => {
    const res = await testLocation({ message: 'near the coast' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ hasLocation: false, location: null, refusedLocation: false });
    expect(res.json().confidence).toBeLessThan(0.5);
  });

  it('answers none for a message without a place, and counts are not ZIPs', async () => {
    for (const message of ['How often should I water my tomatoes?', 'I bought 12345 seeds for $20']) {
      const res = await testLocation({ message });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        hasLocation: false,
        location: null,
        confidence: 0,
        locationType: 'none',
        refusedLocation: false,
      });
    }
  });

  it.each(BAD_MESSAGE_BODIES)(
    'rejects %s with a 400 saying what is missing',
    async (_name, payload, message) => {
      const res = await testLocation(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(res.json().message).toBe(message);
    },
  );

  it.each([
    ['no body', undefined],
    ['a JSON array', []],
    ['a JSON string', '"Portland"'],
    ['broken JSON', '{"message": '],
  ])('rejects %s with a 400', async (_name, payload) => {
    const res = await testLocation(payload);
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe('string');
  });

  it(`limits each client IP to ${LOCATION_TEST_RATE_LIMIT} tests a minute`, async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < LOCATION_TEST_RATE_LIMIT; i++) {
      const res = await testLocation({ message: `zip 97201 #${i}` }, ip);
      expect(res.statusCode).toBe(200);
    }
    const limited = await testLocation({ message: 'zip 97201' }, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: TOO_MANY_LOCATION_TESTS,
    });
    // Bad bodies are counted too, and still refused.
    expect((await testLocation({}, ip)).statusCode).toBe(429);
    // Another client is unaffected.
    expect((await testLocation({ message: 'zip 97201' }, '10.9.9.10')).statusCode).toBe(200);
  });
});

describe('POST /api/validate-message', () => {
  const validate = (payload: unknown, withSession = true) =>
    post('/api/validate-message', payload, withSession ? { cookie: gw.cookie } : {});

  it('needs an admin session', async () => {
    const res = await validate({ message: 'When should I plant tomatoes?' }, false);
    expectStatusMessage(res, 401, 'Authentication required');
  });

  it('answers the validation and its timestamp for a gardening question', async () => {
    const res = await validate({
      message: 'When should I plant tomatoes in Portland?',
      userContext: { zip_code: '97201', region: 'Pacific Northwest', hardiness_zone: '8b' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      validation: expect.objectContaining(validationShape),
      timestamp: expect.stringMatching(ISO_TIME),
    });
    expect(body.validation).toMatchObject({ isValid: true, responseType: 'gardening_question', issues: [] });
    expect(body.timestamp).toBe(body.validation.timestamp);
    expect(body.validation.confidence).toBeGreaterThan(0);
    expect(body.validation.confidence).toBeLessThanOrEqual(1);
  });

  it.each([
    ['too_short', 'k'],
    ['spam', 'FREE SEEDS!!! visit seedsgiveaway.net now'],
    ['non_gardening', 'can you help me with my math homework'],
    ['out_of_region', "I'm in Toronto, when can I plant tomatoes?"],
    ['safety_concern', 'My toddler ate some berries off a bush, what do I do'],
    ['non_english', 'Mis plantas de tomate tienen hojas amarillas'],
  ])('classifies %s as invalid with an issue', async (kind, message) => {
    const res = await validate({ message });
    expect(res.statusCode).toBe(200);
    const { validation } = res.json();
    expect(validation).toMatchObject({ ...validationShape, isValid: false, responseType: kind });
    expect(validation.issues.length).toBeGreaterThan(0);
    for (const issue of validation.issues) {
      expect(issue).toEqual({
        type: expect.any(String),
        severity: expect.stringMatching(/^(low|medium|high)$/),
        message: expect.any(String),
      });
    }
  });

  it('points a safety concern to Poison Control', async () => {
    const res = await validate({ message: 'my dog ate a mushroom from the yard' });
    expect(res.statusCode).toBe(200);
    expect(res.json().validation.safetyGuidance).toContain('1-800-222-1222');
  });

  it('accepts a message without user context, or with an empty one', async () => {
    for (const payload of [
      { message: 'how do i get rid of aphids on my roses' },
      { message: 'how do i get rid of aphids on my roses', userContext: {} },
    ]) {
      const res = await validate(payload);
      expect(res.statusCode).toBe(200);
      expect(res.json().validation.responseType).toBe('gardening_question');
    }
  });

  it.each(BAD_MESSAGE_BODIES)(
    'rejects %s with a 400 saying what is missing',
    async (_name, payload, message) => {
      const res = await validate(payload);
      expectStatusMessage(res, 400, message);
    },
  );

  it('rejects a malformed user context with a 400 naming the field', async () => {
    const res = await validate({ message: 'when do I plant garlic?', userContext: { zip_code: 97201 } });
    expectStatusMessage(res, 400, 'userContext.zip_code: must be text');
    const notAnObject = await validate({ message: 'when do I plant garlic?', userContext: 'Portland' });
    expectStatusMessage(notAnObject, 400, 'userContext: must be an object');
  });
});

describe('POST /api/process-message', () => {
  const processMessage = (payload: unknown, withSession = true) =>
    post('/api/process-message', payload, withSession ? { cookie: gw.cookie } : {});

  const TESTER_DEFAULTS = {
    region: '94117',
    hardiness_zone: '10a',
    soil_type: 'clay',
    experience_level: 'beginner',
  };

  it('needs an admin session', async () => {
    const res = await processMessage({ message: 'When should I plant tomatoes?' }, false);
    expectStatusMessage(res, 401, 'Authentication required');
  });

  it('adds the sender context to a question (the tester defaults, region given as a ZIP)', async () => {
    const message = 'When should I plant tomatoes?';
    const res = await processMessage({ message, userContext: TESTER_DEFAULTS });
    expect(res.statusCode).toBe(200);
    const body = res.json<ProcessingResult>();
    expect(body).toEqual({
      processing: {
        originalMessage: message,
        processedMessage: expect.any(String),
        enhancements: expect.any(Array),
        skipProcessing: false,
      },
      messageLength: message.length,
      wordCount: 5,
      validation: expect.objectContaining({
        ...validationShape,
        isValid: true,
        responseType: 'gardening_question',
      }),
    });
    expect(body.processing.processedMessage.startsWith(`${message} `)).toBe(true);
    expect(body.processing.processedMessage).toContain('94117');
    expect(body.processing.processedMessage).toContain('10a');
    expect(body.processing.processedMessage.toLowerCase()).toContain('clay');
    expect(body.processing.processedMessage.toLowerCase()).toContain('beginner');
    expect(body.processing.enhancements.length).toBeGreaterThanOrEqual(4);
  });

  it('takes a region name as a region', async () => {
    const res = await processMessage({
      message: 'what vegetables grow well in fall?',
      userContext: { region: 'Pacific Northwest' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().processing.skipProcessing).toBe(false);
    expect(res.json().processing.processedMessage).toContain('Pacific Northwest');
  });

  it('skips processing for a profile command and for an invalid message', async () => {
    for (const message of ['ZIP 98101', 'FREE SEEDS!!! visit seedsgiveaway.net now']) {
      const res = await processMessage({ message, userContext: TESTER_DEFAULTS });
      expect(res.statusCode).toBe(200);
      const { processing } = res.json();
      expect(processing).toEqual({
        originalMessage: message,
        processedMessage: message,
        enhancements: [],
        skipProcessing: true,
      });
    }
  });

  it('works without user context', async () => {
    const res = await processMessage({ message: 'how much should i water new sod' });
    expect(res.statusCode).toBe(200);
    expect(res.json().wordCount).toBe(7);
  });

  it.each(BAD_MESSAGE_BODIES)(
    'rejects %s with a 400 saying what is missing',
    async (_name, payload, message) => {
      const res = await processMessage(payload);
      expectStatusMessage(res, 400, message);
    },
  );

  it('rejects a malformed user context with a 400 naming the field', async () => {
    const res = await processMessage({
      message: 'when do I plant garlic?',
      userContext: { soil_type: ['clay'] },
    });
    expectStatusMessage(res, 400, 'userContext.soil_type: must be text');
  });
});
