import {
  InboundSmsForm,
  SMS_BODY_MAX_CHARS,
  StatusCallbackForm,
  UNSTORABLE_TEXT,
  isStorableText,
  searchParam,
  smsBodyOf,
  storableText,
  textField,
} from '@sprout/contracts';

describe('text Postgres can store', () => {
  it.each([
    ['a\u0000b', false],
    ['\ud800', false],
    ['x\udc00', false],
    ['\udc00\ud800', false],
    ['🌱 tomato', true],
    ['plain', true],
    ['', true],
  ])('%j is storable: %s', (text, storable) => {
    expect(isStorableText(text)).toBe(storable);
  });

  it('cleans NUL away and replaces an unpaired surrogate, keeping everything else', () => {
    expect(storableText('to\u0000ma\u0000to 🌱')).toBe('tomato 🌱');
    expect(storableText('a\ud800b\udc00c')).toBe('a\ufffdb\ufffdc');
    expect(isStorableText(storableText('\u0000\ud83c\u0000\udf31'))).toBe(true);
  });

  it('refuses it in a typed field and a search box, with the reason', () => {
    const name = textField('Please enter a name').trim().min(1);
    expect(name.safeParse(' Ann ').data).toBe('Ann');
    expect(name.safeParse('An\u0000n').error?.issues.map((i) => i.message)).toEqual([UNSTORABLE_TEXT]);
    expect(name.safeParse(42).error?.issues.map((i) => i.message)).toEqual(['Please enter a name']);
    expect(searchParam(50).safeParse('tom\u0000').success).toBe(false);
    expect(searchParam(50).safeParse(' tom ').data).toBe('tom');
  });
});

describe("Twilio's forms", () => {
  const form = { MessageSid: 'SM0123456789abcdef0123456789abcdef', From: '+15035550100' };

  it('clean NUL and unpaired surrogates from the Body and the carrier fields instead of refusing', () => {
    const parsed = InboundSmsForm.parse({ ...form, Body: 'aphids\u0000?\ud800', FromCity: 'PORT\u0000LAND' });
    expect(parsed.Body).toBe('aphids?\ufffd');
    expect(parsed.FromCity).toBe('PORTLAND');
    expect(StatusCallbackForm.parse({ ...form, ErrorMessage: 'bad\u0000' }).ErrorMessage).toBe('bad');
  });

  it(`keep the first ${SMS_BODY_MAX_CHARS} characters of a Body, never half a surrogate pair`, () => {
    const long = 'a'.repeat(5000);
    expect(InboundSmsForm.parse({ ...form, Body: long }).Body).toBe('a'.repeat(SMS_BODY_MAX_CHARS));
    const split = `${'a'.repeat(SMS_BODY_MAX_CHARS - 1)}🌱🌱`;
    expect(smsBodyOf(split)).toBe('a'.repeat(SMS_BODY_MAX_CHARS - 1));
    expect(smsBodyOf('a🌱')).toBe('a🌱');
    expect(smsBodyOf(undefined)).toBe('');
  });
});
