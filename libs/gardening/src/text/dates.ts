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
