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

function computeSpendDay(now: Date, timeZone: string): SpendDay {
  const { year, month, day } = wallClock(now, timeZone);
  const midnightAsUtc = Date.UTC(year, month - 1, day);
  // Two passes settle the offset in force at midnight (it differs from now's across a DST change).
  let start = midnightAsUtc - offsetAt(now, timeZone);
  start = midnightAsUtc - offsetAt(new Date(start), timeZone);
  const key = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return { key, start: new Date(start) };
}

/** A day is 23 to 25 hours long, so its start plus 26 hours always falls in the next day. */
const INTO_NEXT_DAY_MS = 26 * 3_600_000;

/** The last day computed per time zone and when the next one starts: every send and model call asks. */
const lastDays = new Map<string, { day: SpendDay; end: number }>();

/** The spending day `now` falls in, midnight to midnight in `timeZone`. */
export function spendDay(now: Date, timeZone: string): SpendDay {
  const at = now.getTime();
  let last = lastDays.get(timeZone);
  if (last === undefined || at < last.day.start.getTime() || at >= last.end) {
    const day = computeSpendDay(now, timeZone);
    const end = computeSpendDay(new Date(day.start.getTime() + INTO_NEXT_DAY_MS), timeZone).start.getTime();
    last = { day, end };
    lastDays.set(timeZone, last);
  }
  // A copy: callers may keep or change what they get.
  return { key: last.day.key, start: new Date(last.day.start.getTime()) };
}
