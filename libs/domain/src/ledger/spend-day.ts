// The spending day: midnight to midnight in a configured time zone.
import { utcOffsetAt, wallClockAt, wallDate } from '@sprout/contracts';

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

export interface SpendDay {
  /** YYYY-MM-DD in the time zone. */
  key: string;
  /** The instant the day began (its midnight, or the first instant after it on a DST jump). */
  start: Date;
}

function computeSpendDay(now: Date, timeZone: string): SpendDay {
  const today = wallClockAt(now, timeZone);
  const midnightAsUtc = Date.UTC(today.year, today.month - 1, today.day);
  // Two passes settle the offset in force at midnight (it differs from now's across a DST change).
  let start = midnightAsUtc - utcOffsetAt(now, timeZone);
  start = midnightAsUtc - utcOffsetAt(new Date(start), timeZone);
  return { key: wallDate(today), start: new Date(start) };
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
