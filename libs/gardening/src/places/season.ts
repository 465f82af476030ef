/** Meteorological season. */
export type Season = 'winter' | 'spring' | 'summer' | 'fall';

const NORTHERN: readonly Season[] = [
  'winter',
  'winter',
  'spring',
  'spring',
  'spring',
  'summer',
  'summer',
  'summer',
  'fall',
  'fall',
  'fall',
  'winter',
];

const OPPOSITE: Readonly<Record<Season, Season>> = {
  winter: 'summer',
  spring: 'fall',
  summer: 'winter',
  fall: 'spring',
};

/**
 * The meteorological season of a date (Dec-Feb winter, Mar-May spring, Jun-Aug summer, Sep-Nov
 * fall), by the date's UTC calendar month, as every "today" in Sprout is a UTC day (the server's own
 * time zone must not move March 1 back into winter). A negative latitude (southern hemisphere) flips it.
 */
export function seasonFor(date: Date, latitude?: number): Season {
  const season = NORTHERN[date.getUTCMonth()] ?? 'winter';
  return latitude !== undefined && latitude < 0 ? OPPOSITE[season] : season;
}
