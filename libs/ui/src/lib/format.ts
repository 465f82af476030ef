// Formatters shared by both web apps. Fixed to en-US so every admin sees the same shapes.

type DateInput = Date | string | number | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function toNumber(value: number | string | null | undefined): number {
  const n = typeof value === 'string' ? Number.parseFloat(value) : (value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

const dollarFormats = new Map<number, Intl.NumberFormat>();

/** Dollars with a fixed number of decimals: 2 on the dashboard, 4 in user tables. */
export function formatDollars(value: number | string | null | undefined, decimals: 2 | 4 = 2): string {
  let format = dollarFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    dollarFormats.set(decimals, format);
  }
  return format.format(toNumber(value));
}

/** A whole number with thousands separators. */
export function formatNumber(value: number | string | null | undefined): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(toNumber(value));
}

function ago(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

/**
 * Relative time: 'Never' without a date, 'Just now' under a second, then
 * seconds under 60 s, minutes under 60 min, hours under 24 h, days under 30 days, months under
 * 12 months, then years.
 */
export function formatRelativeTime(value: DateInput, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return 'Never';
  const seconds = Math.floor((now.getTime() - date.getTime()) / 1000);
  if (seconds < 1) return 'Just now';
  if (seconds < 60) return ago(seconds, 'second');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return ago(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return ago(hours, 'hour');
  const days = Math.floor(hours / 24);
  if (days < 30) return ago(days, 'day');
  const months = Math.floor(days / 30);
  if (months < 12) return ago(months, 'month');
  return ago(Math.floor(months / 12), 'year');
}

const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** 'Jan 5, 2025'; an empty value gives `fallback`. */
export function formatDate(value: DateInput, fallback = '—'): string {
  const date = toDate(value);
  return date ? dateFormat.format(date) : fallback;
}

const utcDayFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/**
 * A calendar day the API counts in UTC ('2025-01-05') as 'Jan 5, 2025' in every time zone (formatted
 * as a local time, even its noon is the next day in zones ahead of UTC+12).
 */
export function formatUtcDay(day: string, fallback = '—'): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : null;
  return date && !Number.isNaN(date.getTime()) ? utcDayFormat.format(date) : fallback;
}

/** 'Jan 5, 2025, 3:04 PM'; an empty value gives `fallback`. */
export function formatDateTime(value: DateInput, fallback = '—'): string {
  const date = toDate(value);
  return date ? dateTimeFormat.format(date) : fallback;
}

/** '3:04 PM'; an empty value gives `fallback`. */
export function formatTime(value: DateInput, fallback = '—'): string {
  const date = toDate(value);
  return date ? timeFormat.format(date) : fallback;
}

/** '+15551234567' -> '(555) 123-4567'; other shapes are returned as given. */
export function formatPhoneNumber(value: string | null | undefined): string {
  if (!value) return '';
  const digits = value.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (national.length !== 10) return value;
  return `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`;
}
