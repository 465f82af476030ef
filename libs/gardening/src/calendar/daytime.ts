import { addDaysToDate, localDateOf, localInstant, localMinutesOf } from './time-zone';

/** Calendar texts go out between 9:00 and 20:00 in the gardener's own time zone. */
export const DAYTIME_START_MINUTES = 9 * 60;
export const DAYTIME_END_MINUTES = 20 * 60;

/** Whether an instant is in the gardener's daytime. */
export function isDaytimeAt(instant: Date, timeZone: string): boolean {
  const minutes = localMinutesOf(instant, timeZone);
  return minutes >= DAYTIME_START_MINUTES && minutes < DAYTIME_END_MINUTES;
}

/**
 * A user's own minute of the morning for tips (10:00 to 12:59), the same every day, so sends
 * spread over three hours rather than all leaving at 10:00.
 */
export function tipMinuteFor(userId: string): number {
  let hash = 0;
  for (const ch of userId) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return 10 * 60 + (hash % 180);
}

/**
 * When a text dated `date` (local) goes out: at `minute` that day; if that has passed, now when
 * it is daytime, else `minute` the next day.
 */
export function sendTimeFor(date: string, minute: number, timeZone: string, now: Date): Date {
  const planned = localInstant(date, minute, timeZone);
  if (planned.getTime() >= now.getTime()) return planned;
  if (isDaytimeAt(now, timeZone)) return now;
  const today = localDateOf(now, timeZone);
  const next = localMinutesOf(now, timeZone) < DAYTIME_START_MINUTES ? today : addDaysToDate(today, 1);
  return localInstant(next, minute, timeZone);
}
