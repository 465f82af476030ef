import { fitToLength, formatMonthDay, isGsm7, toGsm7, wordCount } from '@sprout/gardening';
import { editDistance } from '../src/text/words';

describe('GSM-7', () => {
  it('accepts the GSM alphabet, including its accented letters and extension characters', () => {
    expect(isGsm7('Plant garlic @ 2" deep; ¿inglés? ñ ü é €[]{}~^|\\')).toBe(true);
  });

  it('rejects emoji, other scripts and typographic punctuation', () => {
    expect(isGsm7('🌱')).toBe(false);
    expect(isGsm7('トマト')).toBe(false);
    expect(isGsm7('it’s')).toBe(false);
    expect(isGsm7('a—b')).toBe(false);
  });

  it('rewrites text into GSM-7', () => {
    expect(toGsm7('It’s “ready” – now… 🌱 ½ cup, 32°F')).toBe('It\'s "ready" - now... 1/2 cup, 32 degF');
    expect(toGsm7('crème brûlée')).toBe('crème brulée');
    expect(isGsm7(toGsm7('Ça va? ŁÓDŹ 😀 ₹'))).toBe(true);
  });

  it('fits text at a sentence end, or a word with an ellipsis', () => {
    const text = 'First sentence is here. Second sentence is a good deal longer than the first one.';
    expect(fitToLength(text, 40)).toBe('First sentence is here.');
    expect(fitToLength('one two three four five six seven', 20)).toBe('one two three...');
    expect(fitToLength('short', 20)).toBe('short');
    expect(fitToLength('x'.repeat(50), 10)).toHaveLength(10);
  });
});

describe('words and dates', () => {
  it('counts words', () => {
    expect(wordCount('  how   do I grow\ttomatoes ')).toBe(5);
    expect(wordCount('')).toBe(0);
  });

  it('measures edit distance with swaps counting once', () => {
    expect(editDistance('pheonix', 'phoenix', 2)).toBe(1);
    expect(editDistance('seatle', 'seattle', 2)).toBe(1);
    expect(editDistance('abc', 'xyz', 1)).toBe(2);
  });

  it('formats month-day dates', () => {
    expect(formatMonthDay('03-14')).toBe('Mar 14');
    expect(formatMonthDay('12-01')).toBe('Dec 1');
  });
});
