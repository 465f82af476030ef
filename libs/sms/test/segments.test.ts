import { analyzeSms, fitToSms, isGsm7, toGsm7 } from '@sprout/sms';

describe('analyzeSms', () => {
  it('counts plain GSM-7 text in septets', () => {
    expect(analyzeSms('Water your tomatoes deeply.')).toEqual({ encoding: 'GSM-7', length: 27, segments: 1 });
  });

  it('fits exactly 160 septets in one segment and splits 161 into two', () => {
    expect(analyzeSms('a'.repeat(160))).toEqual({ encoding: 'GSM-7', length: 160, segments: 1 });
    expect(analyzeSms('a'.repeat(161))).toEqual({ encoding: 'GSM-7', length: 161, segments: 2 });
    expect(analyzeSms('a'.repeat(306)).segments).toBe(2);
    expect(analyzeSms('a'.repeat(307)).segments).toBe(3);
  });

  it('counts extension-table characters as two septets', () => {
    for (const char of ['^', '{', '}', '[', ']', '~', '\\', '|', '€']) {
      expect(analyzeSms(char)).toEqual({ encoding: 'GSM-7', length: 2, segments: 1 });
    }
    expect(analyzeSms('a'.repeat(158) + '€')).toMatchObject({ length: 160, segments: 1 });
    expect(analyzeSms('a'.repeat(159) + '€')).toMatchObject({ length: 161, segments: 2 });
  });

  it('never splits an escape sequence across segments', () => {
    // 152 septets then a 2-septet char: it cannot use the 153rd septet, so it moves to segment 2.
    const text = 'a'.repeat(152) + '€' + 'a'.repeat(152);
    expect(analyzeSms(text)).toMatchObject({ encoding: 'GSM-7', length: 306, segments: 3 });
  });

  it('accepts GSM accented letters and Greek capitals without UCS-2', () => {
    expect(analyzeSms('Café à Ñoño ΔΩ £5 ¿?').encoding).toBe('GSM-7');
  });

  it('uses UCS-2 for characters outside the alphabet, counting UTF-16 units', () => {
    expect(analyzeSms('Plant now 🌱')).toEqual({ encoding: 'UCS-2', length: 12, segments: 1 });
    expect(analyzeSms('ç'.repeat(70))).toEqual({ encoding: 'UCS-2', length: 70, segments: 1 });
    expect(analyzeSms('ç'.repeat(71))).toEqual({ encoding: 'UCS-2', length: 71, segments: 2 });
    expect(analyzeSms('ç'.repeat(134)).segments).toBe(2);
    expect(analyzeSms('ç'.repeat(135)).segments).toBe(3);
  });

  it('never splits a surrogate pair across UCS-2 segments', () => {
    // 66 units then an emoji (2 units) does not fit in a 67-unit segment.
    const text = 'ç'.repeat(66) + '🌱' + 'ç'.repeat(66);
    expect(analyzeSms(text)).toMatchObject({ encoding: 'UCS-2', length: 134, segments: 3 });
  });

  it('treats curly quotes as UCS-2 until converted', () => {
    expect(analyzeSms('It’s time').encoding).toBe('UCS-2');
    expect(analyzeSms(toGsm7('It’s time')).encoding).toBe('GSM-7');
  });
});

describe('toGsm7', () => {
  it('replaces typographic quotes, dashes, ellipsis and special spaces', () => {
    expect(toGsm7('“Don’t” – water… now — ok\u00A0now\u2009then')).toBe(
      '"Don\'t" - water... now - ok now then',
    );
    expect(isGsm7(toGsm7('‘single’ „low“ • bullet\u200B'))).toBe(true);
  });

  it('leaves emoji and other scripts alone', () => {
    expect(toGsm7('Grow 🌱 東京')).toBe('Grow 🌱 東京');
    expect(isGsm7('Ñandú')).toBe(false); // ú is not in the GSM alphabet (ù is)
  });
});

describe('fitToSms', () => {
  const sentence = (n: number) => `Sentence number ${n} is about watering tomatoes well.`;

  it('returns short text unchanged (after GSM-7 cleanup and trimming)', () => {
    expect(fitToSms('  It’s a good week to plant peas.  ', 1)).toBe("It's a good week to plant peas.");
  });

  it('cuts at the last sentence end that fits', () => {
    const text = Array.from({ length: 10 }, (_, i) => sentence(i + 1)).join(' ');
    const fitted = fitToSms(text, 2);
    expect(analyzeSms(fitted).segments).toBeLessThanOrEqual(2);
    expect(fitted.endsWith('.')).toBe(true);
    expect(text.startsWith(fitted)).toBe(true);
    // The next sentence would not have fitted.
    const next = text.slice(0, text.indexOf('.', fitted.length) + 1);
    expect(analyzeSms(next).segments).toBeGreaterThan(2);
  });

  it('falls back to a word boundary with an ellipsis when no sentence end fits', () => {
    const text = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    const fitted = fitToSms(text, 1);
    expect(analyzeSms(fitted).segments).toBe(1);
    expect(fitted.endsWith('...')).toBe(true);
    const words = fitted.slice(0, -3).split(' ');
    // Every kept word is whole.
    words.forEach((w, i) => expect(w).toBe(`word${i}`));
  });

  it('keeps GSM-7 when the converted text is GSM-7', () => {
    const text = `${'Don’t overwater. '.repeat(20)}`;
    const fitted = fitToSms(text, 1);
    expect(analyzeSms(fitted)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    expect(fitted.length).toBeGreaterThan(140);
  });

  it('keeps GSM-7 when the only UCS-2 character falls after the cut', () => {
    const text = `${'Mulch your beds. '.repeat(12)}Happy growing 🌱`;
    const fitted = fitToSms(text, 1);
    expect(analyzeSms(fitted).encoding).toBe('GSM-7');
    expect(fitted.endsWith('.')).toBe(true);
  });

  it('fits UCS-2 text into UCS-2 segments without splitting emoji', () => {
    const text = 'Plant 🌱 now. '.repeat(30);
    const fitted = fitToSms(text, 2);
    expect(analyzeSms(fitted)).toMatchObject({ encoding: 'UCS-2' });
    expect(analyzeSms(fitted).segments).toBeLessThanOrEqual(2);
    expect(fitted.endsWith('now.')).toBe(true);
  });

  it('rejects a non-positive segment limit', () => {
    expect(() => fitToSms('hi', 0)).toThrow(RangeError);
  });
});
