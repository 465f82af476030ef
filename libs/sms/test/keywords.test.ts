import {
  PROGRAM_NAME,
  answerComplianceKeyword,
  complianceConfirmation,
  parseComplianceKeyword,
} from '@sprout/sms';
import {
  ENGLISH_OPT_OUT_TEXTS,
  GARDENING_TEXTS_LIKE_OPT_OUTS,
  MAYBE_OPT_OUT_TEXTS,
  OTHER_LANGUAGE_OPT_OUT_TEXTS,
  SPANISH_OPT_OUT_TEXTS,
} from '@sprout/testing';

describe('parseComplianceKeyword', () => {
  it.each(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'])(
    '%s opts out',
    (word) => {
      expect(parseComplianceKeyword(word)).toBe('opt_out');
      expect(parseComplianceKeyword(word.toLowerCase())).toBe('opt_out');
    },
  );

  it.each(['START', 'UNSTOP', 'YES'])('%s opts in', (word) => {
    expect(parseComplianceKeyword(word)).toBe('opt_in');
  });

  it.each(['HELP', 'INFO'])('%s asks for help', (word) => {
    expect(parseComplianceKeyword(word)).toBe('help');
  });

  it('ignores case, surrounding whitespace and punctuation', () => {
    expect(parseComplianceKeyword('stop.')).toBe('opt_out');
    expect(parseComplianceKeyword(' Stop! ')).toBe('opt_out');
    expect(parseComplianceKeyword('\n"Unsubscribe"\n')).toBe('opt_out');
    expect(parseComplianceKeyword('yes!!')).toBe('opt_in');
    expect(parseComplianceKeyword('Help?')).toBe('help');
  });

  it('reads opt-in and help only when the keyword is the whole message', () => {
    expect(parseComplianceKeyword('stop the aphids')).toBeNull();
    expect(parseComplianceKeyword('How do I stop slugs?')).toBeNull();
    expect(parseComplianceKeyword('yes please, more tips')).toBeNull();
    expect(parseComplianceKeyword('info about roses')).toBeNull();
    expect(parseComplianceKeyword('STOPPING')).toBeNull();
    expect(parseComplianceKeyword('')).toBeNull();
  });
});

describe('answerComplianceKeyword', () => {
  it('answers a keyword with its type, the word as received and one GSM-7 confirmation', () => {
    expect(answerComplianceKeyword(' Stop! ', 'help@sprout.example')).toEqual({
      type: 'opt_out',
      keyword: 'STOP',
      language: 'en',
      reply: {
        content: expect.stringMatching(/^Sprout: You're unsubscribed.*Reply START/),
        encoding: 'GSM-7',
        segments: 1,
      },
    });
    expect(answerComplianceKeyword('unstop', 'help@sprout.example')?.type).toBe('opt_in');
    const help = answerComplianceKeyword('Info?', 'help@sprout.example');
    expect(help).toMatchObject({ type: 'help', keyword: 'INFO' });
    expect(help?.reply.content).toContain('help@sprout.example');
    expect(help?.reply.segments).toBeLessThanOrEqual(2);
  });

  it('answers null for anything that is neither a keyword nor an opt-out', () => {
    expect(answerComplianceKeyword('stop the aphids', 'help@sprout.example')).toBeNull();
    expect(answerComplianceKeyword('', 'help@sprout.example')).toBeNull();
  });

  it('gives every keyword its own confirmation', () => {
    const texts = (['opt_out', 'opt_in', 'help', 'maybe_opt_out'] as const).map((k) =>
      complianceConfirmation(k, 'help@sprout.example'),
    );
    expect(new Set(texts).size).toBe(4);
    for (const text of texts) expect(text.startsWith(`${PROGRAM_NAME}: `)).toBe(true);
  });
});

// The fault drills' opt-out probe: phrases that must opt out, and gardening
// questions using the same words that must not. 47 CFR 64.1200(a)(10): any reasonable means.
const OPT_OUTS: string[] = [
  'STOP',
  'stop',
  'Stop.',
  'STOP!!!',
  'Stop please',
  'please stop',
  'STOP PLEASE!',
  'opt out',
  'Opt-out',
  'OPT OUT',
  'optout',
  'stop texting me',
  'Stop texting me!',
  'S T O P',
  's.t.o.p',
  'S-T-O-P please',
  'unsubscribe',
  'Unsubscribe me please',
  'cancel',
  'Cancel please',
  'end',
  'quit',
  'revoke',
  'Revoke consent',
  'STOPALL',
  'stop all',
  'Stop sending me messages',
  'please stop sending me these texts',
  'Can you stop texting me?',
  "don't text me anymore",
  'Do not message me',
  'no more texts please',
  'remove me from your list',
  'Take me off this list',
  'opt me out',
  'I want to opt out',
  'I want to unsubscribe',
  'how do I unsubscribe?',
  'end all messages now',
  'cancel my subscription',
  'leave me alone',
  'Stop 🛑',
  '\u201cStop\u201d',
  'ｓｔｏｐ',
];

const GARDENING_QUESTIONS: string[] = [
  'how do I stop aphids?',
  'How do I stop slugs eating my lettuce',
  'when should I stop watering tomatoes',
  'When do I stop fertilizing roses?',
  'cancel my order of seeds?',
  'stop the aphids',
  'what ends the tomato season',
  'is it the end of the season for peppers',
  'should I quit growing squash?',
  'how to stop squirrels digging up bulbs',
  'can you text me when to stop watering',
  'Should I stop texting you photos of my tomatoes?',
  'how do I remove mealybugs',
  'stop deer from eating hostas',
  'My basil stopped growing, why?',
  'STOPPING blossom drop on peppers',
  'can you take me through pruning roses',
  'When should I end the harvest of asparagus',
  'I put up a fence to stop rabbits but they still get in and eat all of my beans every night, what else can I do to keep them out',
];

describe('opt-out by intent', () => {
  it.each(OPT_OUTS)('%j opts out', (text) => {
    expect(parseComplianceKeyword(text)).toBe('opt_out');
    expect(answerComplianceKeyword(text, 'help@sprout.example')).toMatchObject({
      type: 'opt_out',
      reply: { content: expect.stringMatching(/^Sprout: You're unsubscribed/) },
    });
  });

  it.each(GARDENING_QUESTIONS)('%j is a gardening question, not an opt-out', (text) => {
    expect(parseComplianceKeyword(text)).toBeNull();
    expect(answerComplianceKeyword(text, 'help@sprout.example')).toBeNull();
  });

  it('records the keyword, or the folded phrase, for the audit trail (at most 32 characters)', () => {
    expect(answerComplianceKeyword('S T O P', 'x@y.z')?.keyword).toBe('STOP');
    expect(answerComplianceKeyword('Opt-out', 'x@y.z')?.keyword).toBe('OPTOUT');
    expect(answerComplianceKeyword('Stop texting me!', 'x@y.z')?.keyword).toBe('STOP TEXTING ME');
    const long = answerComplianceKeyword('please please stop sending me all of these text messages', 'x@y.z');
    expect(long?.keyword.length).toBeLessThanOrEqual(32);
  });

  it('reads spaced and punctuated opt-in and help keywords too', () => {
    expect(parseComplianceKeyword('H E L P')).toBe('help');
    expect(parseComplianceKeyword('s-t-a-r-t')).toBe('opt_in');
  });

  it('reads a long text in time linear in its length, and never as an opt-out', () => {
    const long = 'stop '.repeat(20_000);
    const started = performance.now();
    expect(parseComplianceKeyword(long)).toBeNull();
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('opt-out as people say it', () => {
  it.each(ENGLISH_OPT_OUT_TEXTS)('%j opts out, confirmed in English', (text) => {
    expect(answerComplianceKeyword(text, 'help@sprout.example')).toMatchObject({
      type: 'opt_out',
      language: 'en',
      reply: { content: complianceConfirmation('opt_out', 'help@sprout.example') },
    });
  });

  it.each(SPANISH_OPT_OUT_TEXTS)('%j opts out, confirmed in Spanish', (text) => {
    expect(answerComplianceKeyword(text, 'help@sprout.example')).toMatchObject({
      type: 'opt_out',
      language: 'es',
      reply: { content: expect.stringMatching(/^Sprout: Te diste de baja/) },
    });
  });

  it.each(OTHER_LANGUAGE_OPT_OUT_TEXTS)('%j opts out, confirmed in English', (text) => {
    expect(answerComplianceKeyword(text, 'help@sprout.example')).toMatchObject({
      type: 'opt_out',
      language: 'en',
      reply: { content: expect.stringMatching(/^Sprout: You're unsubscribed/) },
    });
  });

  it.each(MAYBE_OPT_OUT_TEXTS)(
    '%j may be an opt-out: asked to reply STOP (%s), nothing else',
    (text, language) => {
      expect(parseComplianceKeyword(text)).toBe('maybe_opt_out');
      const answer = answerComplianceKeyword(text, 'help@sprout.example');
      expect(answer).toMatchObject({
        type: 'maybe_opt_out',
        language,
        reply: { content: complianceConfirmation('maybe_opt_out', 'help@sprout.example', language) },
      });
      expect(answer?.reply.content).toContain('STOP');
    },
  );

  it.each(GARDENING_TEXTS_LIKE_OPT_OUTS)('%j is a gardening text, neither an opt-out nor a maybe', (text) => {
    expect(parseComplianceKeyword(text)).toBeNull();
    expect(answerComplianceKeyword(text, 'help@sprout.example')).toBeNull();
  });

  it('keeps the English confirmations word for word, and writes the Spanish ones in one GSM-7 segment', () => {
    expect(complianceConfirmation('opt_out', 'x@y.z')).toBe(
      "Sprout: You're unsubscribed and will get no more messages from us. Reply START to resubscribe.",
    );
    expect(complianceConfirmation('opt_out', 'x@y.z', 'es')).toBe(
      'Sprout: Te diste de baja y ya no te enviaremos mensajes. Responde START para volver a suscribirte.',
    );
    expect(complianceConfirmation('maybe_opt_out', 'x@y.z')).toBe(
      'Sprout: Reply STOP to unsubscribe from our texts. For gardening advice, just text us your question.',
    );
    expect(complianceConfirmation('maybe_opt_out', 'x@y.z', 'es')).toBe(
      'Sprout: Responde STOP o BAJA para darte de baja de nuestros mensajes. Para consejos sobre tus plantas, manda tu pregunta.',
    );
    // HELP and START have no Spanish keyword: their answers stay English.
    expect(complianceConfirmation('help', 'x@y.z', 'es')).toBe(complianceConfirmation('help', 'x@y.z'));
    for (const text of ['BAJA', 'suficiente', 'STOP', 'enough']) {
      expect(answerComplianceKeyword(text, 'x@y.z')?.reply).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    }
  });

  it('records the Spanish keyword and phrase as received, accents dropped', () => {
    expect(answerComplianceKeyword('Arrêt', 'x@y.z')?.keyword).toBe('ARRET');
    expect(answerComplianceKeyword('quítame de la lista', 'x@y.z')?.keyword).toBe('QUITAME DE LA LISTA');
    expect(answerComplianceKeyword('enough', 'x@y.z')?.keyword).toBe('ENOUGH');
  });
});

describe('garden tips keywords', () => {
  it.each([
    'TIPS',
    'tips',
    'Tip',
    'TIPS ON',
    'START TIPS',
    'tips please',
    'Tips, please!',
    'yes tips',
    'send me tips',
    'sign me up for garden tips',
  ])('%s subscribes to tips', (text) => {
    expect(parseComplianceKeyword(text)).toBe('tips_opt_in');
  });

  it.each([
    'TIPS OFF',
    'tips off please',
    'STOP TIPS',
    'NO TIPS',
    'no more tips',
    'stop sending me tips',
    'cancel tips',
    'Unsubscribe from tips',
  ])('%s stops tips only', (text) => {
    expect(parseComplianceKeyword(text)).toBe('tips_opt_out');
  });

  it('leaves STOP, questions about tips and a bare no as they were', () => {
    expect(parseComplianceKeyword('STOP')).toBe('opt_out');
    expect(parseComplianceKeyword('stop sending me texts')).toBe('opt_out');
    expect(parseComplianceKeyword('any tips for growing tomatoes?')).toBeNull();
    expect(parseComplianceKeyword('Can you send me tips on pruning?')).toBeNull();
    // Whether "no" declines the offer depends on the user: the recorder decides, the pipeline never sees a keyword.
    expect(parseComplianceKeyword('no thanks')).toBeNull();
    expect(answerComplianceKeyword('NO THANKS', 'help@example.com')?.type).toBe('tips_decline');
    expect(answerComplianceKeyword('no, my tomatoes are wilting', 'help@example.com')).toBeNull();
  });

  it('confirms in at most two GSM-7 segments, with how to stop tips and everything', () => {
    for (const text of ['TIPS', 'TIPS OFF', 'no']) {
      const answer = answerComplianceKeyword(text, 'help@example.com');
      expect(answer?.reply.encoding).toBe('GSM-7');
      expect(answer!.reply.segments).toBeLessThanOrEqual(2);
    }
    const on = answerComplianceKeyword('TIPS', 'help@example.com')!.reply.content;
    expect(on).toContain('Reply TIPS OFF to stop tips, STOP to end all texts');
  });
});
