// Wall-clock time in an IANA time zone, with Intl alone (browser-safe): the spending day of the
// data layer and the garden calendar's local dates both read the clock this way.

/** The local date and time of an instant in a time zone, to the second. */
export interface WallClock {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  /** 0 to 23. */
  hour: number;
  minute: number;
  second: number;
}

/** One formatter per time zone: building one is slow, and callers ask on every send. */
const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `instant` in `timeZone`. */
export function wallClockAt(instant: Date, timeZone: string): WallClock {
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
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return {
    year: Number(parts['year']),
    month: Number(parts['month']),
    day: Number(parts['day']),
    hour: Number(parts['hour']),
    minute: Number(parts['minute']),
    second: Number(parts['second']),
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in ms. */
export function utcOffsetAt(instant: Date, timeZone: string): number {
  const w = wallClockAt(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** A wall clock's date as "YYYY-MM-DD". */
export const wallDate = ({ year, month, day }: Pick<WallClock, 'year' | 'month' | 'day'>): string =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
