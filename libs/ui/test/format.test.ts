import {
  formatDate,
  formatDateTime,
  formatDollars,
  formatNumber,
  formatPhoneNumber,
  formatRelativeTime,
  formatUtcDay,
} from '../src';

describe('formatDollars', () => {
  it('shows 2 decimals by default and 4 when asked', () => {
    expect(formatDollars(12.3456)).toBe('$12.35');
    expect(formatDollars(0.00123, 4)).toBe('$0.0012');
    expect(formatDollars(1234.5)).toBe('$1,234.50');
  });

  it('reads numeric strings and treats missing values as zero', () => {
    expect(formatDollars('3.1')).toBe('$3.10');
    expect(formatDollars(null)).toBe('$0.00');
    expect(formatDollars('not a number', 4)).toBe('$0.0000');
  });
});

describe('formatNumber', () => {
  it('groups thousands', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
  });
});

describe('formatRelativeTime', () => {
  const now = new Date('2025-06-15T12:00:00Z');
  const before = (ms: number) => new Date(now.getTime() - ms);
  const s = 1000;
  const min = 60 * s;
  const h = 60 * min;
  const day = 24 * h;

  it('says Never without a date', () => {
    expect(formatRelativeTime(null, now)).toBe('Never');
    expect(formatRelativeTime(undefined, now)).toBe('Never');
    expect(formatRelativeTime('garbage', now)).toBe('Never');
  });

  it('walks the thresholds 60 s, 60 min, 24 h, 30 days, 12 months', () => {
    expect(formatRelativeTime(now, now)).toBe('Just now');
    expect(formatRelativeTime(before(1 * s), now)).toBe('1 second ago');
    expect(formatRelativeTime(before(59 * s), now)).toBe('59 seconds ago');
    expect(formatRelativeTime(before(60 * s), now)).toBe('1 minute ago');
    expect(formatRelativeTime(before(59 * min), now)).toBe('59 minutes ago');
    expect(formatRelativeTime(before(60 * min), now)).toBe('1 hour ago');
    expect(formatRelativeTime(before(23 * h), now)).toBe('23 hours ago');
    expect(formatRelativeTime(before(24 * h), now)).toBe('1 day ago');
    expect(formatRelativeTime(before(29 * day), now)).toBe('29 days ago');
    expect(formatRelativeTime(before(30 * day), now)).toBe('1 month ago');
    expect(formatRelativeTime(before(359 * day), now)).toBe('11 months ago');
    expect(formatRelativeTime(before(360 * day), now)).toBe('1 year ago');
    expect(formatRelativeTime(before(3 * 365 * day), now)).toBe('3 years ago');
  });

  it('accepts ISO strings', () => {
    expect(formatRelativeTime('2025-06-15T11:55:00Z', now)).toBe('5 minutes ago');
  });
});

describe('formatDate', () => {
  it('formats dates and falls back on empty values', () => {
    expect(formatDate(new Date(2025, 0, 5))).toBe('Jan 5, 2025');
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime(undefined, 'Ongoing')).toBe('Ongoing');
    expect(formatDateTime(new Date(2025, 0, 5, 15, 4))).toBe('Jan 5, 2025, 3:04 PM');
  });
});

describe('formatUtcDay', () => {
  it('shows a UTC calendar day as that day in any time zone', () => {
    expect(formatUtcDay('2025-01-05')).toBe('Jan 5, 2025');
    expect(formatUtcDay('2025-12-31')).toBe('Dec 31, 2025');
    expect(formatUtcDay('not a day')).toBe('—');
    expect(formatUtcDay('2025-13-45', '')).toBe('');
  });
});

describe('formatPhoneNumber', () => {
  it('formats US numbers and leaves others alone', () => {
    expect(formatPhoneNumber('+15551234567')).toBe('(555) 123-4567');
    expect(formatPhoneNumber('5551234567')).toBe('(555) 123-4567');
    expect(formatPhoneNumber('+447700900123')).toBe('+447700900123');
    expect(formatPhoneNumber(undefined)).toBe('');
  });
});
