// Hostile probes against the real inbound webhook and its real signature check: the opt-out
// phrases both ways, text Postgres refuses, oversized and malformed bodies, and a few hundred
// signed random bodies. Nothing answers 5xx, nothing crashes, and no signed text is lost.
import { SMS_BODY_MAX_CHARS, smsBodyOf, storableText } from '@sprout/contracts';
import { ConsentEvent, Message, User } from '@sprout/domain';
import { JobQueues } from '@sprout/platform';
import { complianceConfirmation } from '@sprout/sms';
import {
  ENGLISH_OPT_OUT_TEXTS,
  GARDENING_TEXTS_LIKE_OPT_OUTS,
  MAYBE_OPT_OUT_TEXTS,
  OTHER_LANGUAGE_OPT_OUT_TEXTS,
  SPANISH_OPT_OUT_TEXTS,
} from '@sprout/testing';
import { type GatewayHarness, eventually, startGateway } from './harness';

const OUR_NUMBER = '+15005550006';

describe('inbound webhook probes', () => {
  let h: GatewayHarness;
  let url: string;
  let sidCounter = 0;
  let phoneCounter = 0;

  beforeAll(async () => {
    h = await startGateway({ callbackDelayMs: 5 });
    url = `${h.baseUrl}/webhooks/twilio/sms`;
  });
  afterAll(async () => {
    await h?.close();
  }, 120_000);

  const nextSid = () => `SMprobe${String(++sidCounter).padStart(27, '0')}`;
  /** A distinct number per call (503-555-2xxx, fiction's range), apart from the harness's. */
  const nextPhone = () => `+1503555${String(2000 + (phoneCounter++ % 8000)).padStart(4, '0')}`;
  const messages = () => h.db.dataSource.getRepository(Message);

  /** Posts form parameters (a repeated key as an array), signed as Twilio signs them. */
  const post = async (
    params: Record<string, string | string[]>,
    options: { contentType?: string; body?: string; sign?: Record<string, string | string[]> } = {},
  ): Promise<Response> => {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      for (const v of Array.isArray(value) ? value : [value]) form.append(key, v);
    }
    // Twilio's signature covers the parameters as the server decodes them (URLSearchParams
    // writes an unpaired surrogate as U+FFFD), repeated keys included (twilio's own algorithm).
    const decoded: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(form.toString())) {
      const seen = decoded[key];
      decoded[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    }
    const signature = h.twilio.signWebhook(url, (options.sign ?? decoded) as Record<string, string>);
    return fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': options.contentType ?? 'application/x-www-form-urlencoded',
        'X-Twilio-Signature': signature,
      },
      body: options.body ?? form.toString(),
    });
  };

  const sms = (from: string, body: string, extra: Record<string, string> = {}) => {
    const sid = nextSid();
    return { sid, response: post({ From: from, To: OUR_NUMBER, Body: body, MessageSid: sid, ...extra }) };
  };

  describe('opt-out phrases', () => {
    // The drill's 18 variants: every one opts out, with one confirmation and no reply.
    const OPT_OUTS = [
      'STOP',
      'Stop please',
      'opt out',
      'Opt-out',
      'stop texting me',
      'S T O P',
      'Unsubscribe',
      'cancel',
      'End.',
      'quit!',
      'revoke',
      'STOPALL',
      'optout',
      'please stop',
      'Stop sending me texts',
      'remove me from your list',
      "don't text me anymore",
      'I want to opt out',
    ];
    const QUESTIONS = [
      ...GARDENING_TEXTS_LIKE_OPT_OUTS,
      'how do I stop aphids?',
      'when should I stop watering tomatoes',
      'cancel my order of seeds?',
      'How do I stop slugs eating my lettuce',
      'is it the end of the season for peppers',
      'should I quit growing squash?',
      'can you text me when to stop watering',
      'stop deer from eating hostas',
    ];

    /** Posts a text from a new number; answers the stored message and its sender. */
    const textFromNewNumber = async (text: string) => {
      const phone = nextPhone();
      const { sid, response } = sms(phone, text);
      expect((await response).status).toBe(200);
      const inbound = await messages().findOneByOrFail({ providerSid: sid });
      const user = await h.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
      return { phone, inbound, user };
    };
    /** The texts sent to a number, once there are `count`. */
    const sentTo = (phone: string, count: number) =>
      eventually(async () => {
        const to = h.twilio.sent.filter((m) => m.to === phone).map((m) => m.body);
        return to.length >= count ? to : undefined;
      }, `${count} text(s) to ${phone}`);
    const inboundJobOf = (messageId: string) =>
      h.gateway.app.get(JobQueues).queue('sms.inbound').getJob(`inbound-${messageId}`);
    // Opt-out answers and STOP questions carry no contact address.
    const CONTACT_EMAIL = 'unused@sprout.example';

    it.each([
      ...[...OPT_OUTS, ...ENGLISH_OPT_OUT_TEXTS, ...OTHER_LANGUAGE_OPT_OUT_TEXTS].map(
        (t) => [t, 'en'] as const,
      ),
      ...SPANISH_OPT_OUT_TEXTS.map((t) => [t, 'es'] as const),
    ])('%j opts the sender out with exactly one confirmation, in %s', async (text, language) => {
      const { phone, inbound, user } = await textFromNewNumber(text);
      expect(inbound.kind).toBe('consent');
      expect(user.optedOut).toBe(true);
      expect(await sentTo(phone, 1)).toEqual([complianceConfirmation('opt_out', CONTACT_EMAIL, language)]);
      expect(await inboundJobOf(inbound.id)).toBeUndefined();

      // Saying it again is recorded, and not confirmed a second time.
      const again = sms(phone, 'STOP');
      expect((await again.response).status).toBe(200);
      const events = await h.db.dataSource
        .getRepository(ConsentEvent)
        .countBy({ userId: user.id, type: 'opt_out' });
      expect(events).toBe(2);
      expect(await messages().countBy({ userId: user.id, direction: 'outbound' })).toBe(1);
    });

    it.each(QUESTIONS)('%j is a question for the pipeline, not an opt-out', async (text) => {
      const { inbound, user } = await textFromNewNumber(text);
      expect(inbound.kind).toBe('reply');
      expect((await inboundJobOf(inbound.id))?.data).toEqual({ messageId: inbound.id });
      expect(user.optedOut).toBe(false);
    });

    it.each(MAYBE_OPT_OUT_TEXTS)(
      '%j is asked to reply STOP (in %s), stays subscribed and never reaches the pipeline',
      async (text, language) => {
        const { phone, inbound, user } = await textFromNewNumber(text);
        expect(inbound.kind).toBe('consent');
        expect(await inboundJobOf(inbound.id)).toBeUndefined();
        const question = complianceConfirmation('maybe_opt_out', CONTACT_EMAIL, language);
        expect(await sentTo(phone, 1)).toEqual([question]);
        expect(user.optedOut).toBe(false);
        const event = await h.db.dataSource
          .getRepository(ConsentEvent)
          .findOneByOrFail({ messageId: inbound.id });
        expect(event).toMatchObject({ type: 'maybe_opt_out', source: 'sms' });
        expect(await messages().findOneByOrFail({ id: event.replyMessageId ?? '' })).toMatchObject({
          direction: 'outbound',
          kind: 'consent',
          content: question,
        });

        // Replying STOP as asked opts out, with its confirmation.
        expect((await sms(phone, 'STOP').response).status).toBe(200);
        expect((await sentTo(phone, 2))[1]).toMatch(/^Sprout: You're unsubscribed/);
        expect((await h.db.dataSource.getRepository(User).findOneByOrFail({ id: user.id })).optedOut).toBe(
          true,
        );
      },
    );

    it('asks a subscriber, never a sender already opted out: their "enough" is then a text like any other', async () => {
      const phone = nextPhone();
      expect((await sms(phone, 'enough').response).status).toBe(200);
      expect(await sentTo(phone, 1)).toEqual([complianceConfirmation('maybe_opt_out', CONTACT_EMAIL)]);
      expect((await sms(phone, 'STOP').response).status).toBe(200);
      await sentTo(phone, 2);

      const { sid, response } = sms(phone, 'enough');
      expect((await response).status).toBe(200);
      const inbound = await messages().findOneByOrFail({ providerSid: sid });
      expect(inbound.kind).toBe('reply');
      // The pipeline answers nothing to an opted-out user; nothing else was written for them.
      expect((await inboundJobOf(inbound.id))?.data).toEqual({ messageId: inbound.id });
      expect(await h.db.dataSource.getRepository(ConsentEvent).countBy({ messageId: inbound.id })).toBe(0);
      expect(await messages().countBy({ userId: inbound.userId, direction: 'outbound' })).toBe(2);
    });
  });

  describe('text Postgres refuses', () => {
    it('stores a Body and carrier fields with NUL or unpaired surrogates cleaned, never losing the text', async () => {
      const phone = nextPhone();
      const { sid, response } = sms(phone, 'why are my\u0000 tomato leaves curling?\u0000', {
        FromCity: 'PORT\u0000LAND',
        FromState: 'O\u0000R',
        FromZip: '97\u000001',
      });
      expect((await response).status).toBe(200);
      const stored = await messages().findOneByOrFail({ providerSid: sid });
      expect(stored.content).toBe('why are my tomato leaves curling?');
      expect(stored.locationHint).toMatchObject({ city: 'PORTLAND', state: 'OR', zip: '9701' });
    });

    it('cleans them from a status callback too', async () => {
      const statusUrl = `${h.baseUrl}/webhooks/twilio/status`;
      const params = { MessageSid: nextSid(), MessageStatus: 'fail\u0000ed', ErrorMessage: 'x\u0000y' };
      const response = await fetch(statusUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'X-Twilio-Signature': h.twilio.signWebhook(statusUrl, params),
        },
        body: new URLSearchParams(params).toString(),
      });
      expect(response.status).toBe(204);
    });
  });

  describe('oversized and malformed bodies', () => {
    it(`keeps the first ${SMS_BODY_MAX_CHARS} characters of a 100 KB Body`, async () => {
      const { sid, response } = sms(nextPhone(), `${'tomato '.repeat(15_000)}end`);
      expect((await response).status).toBe(200);
      const stored = await messages().findOneByOrFail({ providerSid: sid });
      expect(stored.content).toHaveLength(SMS_BODY_MAX_CHARS);
      expect(stored.content.startsWith('tomato tomato')).toBe(true);
    });

    it('answers 413 for a body over the limit, and keeps serving', async () => {
      const huge = sms(nextPhone(), 'x'.repeat(2 * 1024 * 1024));
      expect((await huge.response).status).toBe(413);
      const { response } = sms(nextPhone(), 'When do I plant garlic?');
      expect((await response).status).toBe(200);
    });

    it.each([
      ['JSON', 'application/json', JSON.stringify({ From: ['x'], Body: { a: 1 }, MessageSid: 7 })],
      ['plain text', 'text/plain', 'From=+15035550100&Body=hi'],
      ['XML', 'application/xml', '<Body>hi</Body>'],
      [
        'multipart',
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="Body"\r\n\r\nhi\r\n--x--',
      ],
      ['broken percent-encoding', 'application/x-www-form-urlencoded', 'Body=%E0%A4%A&From=%zz&MessageSid=%'],
      [
        'invalid UTF-8',
        'application/x-www-form-urlencoded',
        'Body=%C3%28%FF&From=%2B15035550100&MessageSid=SM123',
      ],
      ['empty', 'application/x-www-form-urlencoded', ''],
      ['no content type', '', 'Body=hi'],
    ])('answers a %s body with a 4xx, signed or not', async (_name, contentType, body) => {
      const signings: Record<string, string>[] = [{}, { Body: 'hi' }];
      for (const sign of signings) {
        const response = await post({}, { contentType, body, sign });
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
      }
    });
  });

  describe('signed random bodies', () => {
    // A seeded generator: a failure names its case and reproduces.
    let seed = 0x5eed_1818;
    const random = (): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const RANGES: ReadonlyArray<readonly [number, number]> = [
      [0x00, 0x1f], // controls, NUL included
      [0x20, 0x7e],
      [0x80, 0x2ff],
      [0x590, 0x6ff], // Hebrew, Arabic
      [0x4e00, 0x4fff],
      [0xd800, 0xdfff], // surrogate halves, alone or not
      [0xfff0, 0xffff],
      [0x1f300, 0x1f6ff], // emoji
    ];
    const randomText = (max: number): string => {
      const length = Math.floor(random() * max);
      let text = '';
      for (let i = 0; i < length; i += 1) {
        const [lo, hi] = pick(RANGES);
        text += String.fromCodePoint(lo + Math.floor(random() * (hi - lo + 1)));
      }
      return text;
    };
    const randomBody = (): string =>
      pick([
        () => randomText(40),
        () => randomText(400),
        () => randomText(3000),
        () => 'a'.repeat(Math.floor(random() * 50_000)),
        () => pick(['STOP', 'S T O P', 'help', 'start', 'stop\u0000', 'opt out', 'how do I stop aphids?']),
        () => '',
      ])();

    it('never answer 5xx, store every well-formed text once, cleaned and capped, and leave the service up', async () => {
      const outcomes: string[] = [];
      const cases = Array.from({ length: 300 }, (_, i) => i);
      const runCase = async (i: number): Promise<void> => {
        const params: Record<string, string | string[]> = {};
        const sid = nextSid();
        const from = random() < 0.85 ? nextPhone() : pick(['', 'garbage', `+1503\u0000555`, randomText(20)]);
        const body = randomBody();
        if (random() < 0.95) params.MessageSid = random() < 0.95 ? sid : pick(['', 'SM', randomText(30)]);
        if (random() < 0.95) params.From = from;
        if (random() < 0.9) params.Body = body;
        if (random() < 0.5) params.To = random() < 0.8 ? OUR_NUMBER : randomText(20);
        if (random() < 0.4) params.FromCity = randomText(80);
        if (random() < 0.3) params.FromZip = randomText(12);
        if (random() < 0.2) params.NumMedia = pick(['0', '1', '10', '11', '-1', 'x', randomText(5)]);
        if (random() < 0.2) params.MediaUrl0 = pick(['https://api.twilio.com/x.jpg', randomText(60)]);
        if (random() < 0.2) params.MediaContentType0 = randomText(30);
        if (random() < 0.1) params[randomText(10) || 'k'] = randomText(30);
        if (random() < 0.05) params.Body = [body, randomText(20)];
        const response = await post(params);
        outcomes.push(`${i}:${response.status}`);
        // A 5xx names the case's parameters and the answer.
        const failure = response.status >= 500 ? `${JSON.stringify(params)} -> ${await response.text()}` : '';
        expect({ case: i, status: response.status < 500, failure }).toEqual({
          case: i,
          status: true,
          failure: '',
        });
        const wellFormed = params.MessageSid === sid && params.From === from && /^\+1503555\d{4}$/.test(from);
        if (wellFormed) {
          expect({ case: i, status: response.status }).toEqual({ case: i, status: 200 });
          const sent = Array.isArray(params.Body) ? params.Body[0] : params.Body;
          const decoded = new URLSearchParams({ b: sent ?? '' }).get('b') ?? '';
          const stored = await messages().findOneByOrFail({ providerSid: sid });
          expect({ case: i, content: stored.content }).toEqual({
            case: i,
            content: smsBodyOf(storableText(decoded)),
          });
        }
      };
      // Eight at a time, as Twilio would deliver a busy number's texts.
      for (let start = 0; start < cases.length; start += 8) {
        await Promise.all(cases.slice(start, start + 8).map(runCase));
      }
      expect(outcomes).toHaveLength(300);
      expect(outcomes.filter((o) => o.endsWith(':200')).length).toBeGreaterThan(150);
      const live = await fetch(`${h.baseUrl}/health/live`);
      expect(live.status).toBe(200);
    }, 240_000);
  });
});
