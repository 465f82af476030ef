// The spending day: midnight to midnight in a configured time zone.

/** Whether `name` is an IANA time zone this runtime knows ("UTC", "America/Los_Angeles"). */
export function isTimeZone(name: string): boolean {
  if (name.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of `at` in `timeZone`. */
function wallClock(at: Date, timeZone: string) {
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at`, in ms. */
function offsetAt(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

export interface SpendDay {
  /** YYYY-MM-DD in the time zone. */
  key: string;
  /** The instant the day began (its midnight, or the first instant after it on a DST jump). */
  start: Date;
}

/** The spending day `now` falls in, midnight to midnight in `timeZone`. */
export function spendDay(now: Date, timeZone: string): SpendDay {
  const { year, month, day } = wallClock(now, timeZone);
  const midnightAsUtc = Date.UTC(year, month - 1, day);
  // Two passes settle the offset in force at midnight (it differs from now's across a DST change).
  let start = midnightAsUtc - offsetAt(now, timeZone);
  start = midnightAsUtc - offsetAt(new Date(start), timeZone);
  const key = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return { key, start: new Date(start) };
}
