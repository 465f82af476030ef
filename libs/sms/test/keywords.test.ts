import { parseComplianceKeyword } from '@sprout/sms';

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
