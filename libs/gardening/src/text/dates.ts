const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** "03-15" -> "Mar 15". */
export function formatMonthDay(monthDay: string): string {
  const [m, d] = monthDay.split('-').map(Number);
  return `${MONTHS[(m ?? 1) - 1] ?? 'Jan'} ${d ?? 1}`;
}

/** A date's "Mon D" form, by its calendar (UTC) day. */
export function formatDate(date: Date): string {
  return `${MONTHS[date.getUTCMonth()] ?? 'Jan'} ${date.getUTCDate()}`;
}

/** The UTC midnight of "MM-DD" in a year. */
export function dateInYear(monthDay: string, year: number): Date {
  const [m, d] = monthDay.split('-').map(Number);
  return new Date(Date.UTC(year, (m ?? 1) - 1, d ?? 1));
}

/** `date` moved by a number of days. */
export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

/** The UTC midnight of a date's calendar day. */
export function startOfDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** The part of a month a date falls in, as gardeners say it: "early June", "mid-June", "late June". */
export function partOfMonth(date: Date): string {
  const day = date.getUTCDate();
  const month = MONTH_NAMES[date.getUTCMonth()] ?? 'January';
  return day <= 10 ? `early ${month}` : day <= 20 ? `mid-${month}` : `late ${month}`;
}

/** A span of dates in parts of months: "late March to mid-April", "early to mid-May", "mid-May". */
export function monthSpan(from: Date, to: Date): string {
  const a = partOfMonth(from);
  const b = partOfMonth(to);
  if (a === b) return a;
  // "early to mid-May", "mid- to late May".
  if (from.getUTCMonth() === to.getUTCMonth()) {
    return `${a.startsWith('mid-') ? 'mid-' : (a.split(' ')[0] ?? '')} to ${b}`;
  }
  return `${a} to ${b}`;
}
