// Time windows of the admin statistics. Days are UTC days, like the rollups' hours
// (rollup_hourly buckets by UTC hour), so "today" is the same on every server.

const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

const startOfUtcHour = (at: Date): Date => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

export const startOfUtcDay = (at: Date): Date =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/**
 * A rolling window [from, now] split for the rollups: whole UTC hours from `wholeHoursFrom` on
 * come from rollup_hourly, and the part of the first hour inside the window, [from,
 * wholeHoursFrom), is counted on the table itself (an indexed range of at most an hour).
 */
export interface RollingWindow {
  from: Date;
  /** The UTC hour that contains `from`. */
  headHourStart: Date;
  /** The end of that hour: rollup hours from here on lie wholly inside the window. */
  wholeHoursFrom: Date;
}

export const rollingWindow = (now: Date, lengthMs: number): RollingWindow => {
  const from = new Date(now.getTime() - lengthMs);
  const headHourStart = startOfUtcHour(from);
  return { from, headHourStart, wholeHoursFrom: new Date(headHourStart.getTime() + HOUR_MS) };
};

/** Percent with one decimal. */
export const percent = (part: number, whole: number): number =>
  whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
