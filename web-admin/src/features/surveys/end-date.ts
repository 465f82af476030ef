/** Today as the date input writes it (YYYY-MM-DD), in the admin's time zone. */
export function todayInput(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The chosen End Date as the API takes it: the end of that day in the admin's time zone (the
 * campaign runs through it), as an ISO date-time; null for an empty input.
 */
export function endOfDayIso(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return null;
  const [, year, month, day] = match;
  return new Date(Number(year), Number(month) - 1, Number(day), 23, 59, 59, 999).toISOString();
}
