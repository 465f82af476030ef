import {
  PROGRAM_NAME,
  answerComplianceKeyword,
  complianceConfirmation,
  parseComplianceKeyword,
} from '@sprout/sms';

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

  it('matches only when the keyword is the whole message', () => {
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

  it('answers null for anything that is not a whole keyword', () => {
    expect(answerComplianceKeyword('stop the aphids', 'help@sprout.example')).toBeNull();
    expect(answerComplianceKeyword('', 'help@sprout.example')).toBeNull();
  });

  it('gives every keyword its own confirmation', () => {
    const texts = (['opt_out', 'opt_in', 'help'] as const).map((k) =>
      complianceConfirmation(k, 'help@sprout.example'),
    );
    expect(new Set(texts).size).toBe(3);
    for (const text of texts) expect(text.startsWith(`${PROGRAM_NAME}: `)).toBe(true);
  });
});
