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

/** The season that matters in the tropics, where there is no winter to speak of. */
export type TropicalSeason = 'wet season' | 'dry season';

/** What is known of a place: its coordinates and/or its state or territory code. */
export interface SeasonPlace {
  latitude?: number | null;
  state?: string | null;
}

/** The Tropic of Cancer (and of Capricorn, south). */
const TROPIC_LATITUDE = 23.44;

/**
 * Wet-season months (1-12) of the US tropics: Hawaii's rains come with winter (hooilo, October to
 * April); Puerto Rico's and the Virgin Islands' with summer and the hurricane season (May to
 * November); the Marianas' July to November; American Samoa's, south of the equator, November to April.
 */
const WET_MONTHS: Readonly<Record<string, readonly number[]>> = {
  HI: [10, 11, 12, 1, 2, 3, 4],
  PR: [5, 6, 7, 8, 9, 10, 11],
  VI: [5, 6, 7, 8, 9, 10, 11],
  GU: [7, 8, 9, 10, 11],
  MP: [7, 8, 9, 10, 11],
  AS: [11, 12, 1, 2, 3, 4],
};
/** Elsewhere in the tropics: the rains follow the sun (May-October north, November-April south). */
const NORTHERN_WET: readonly number[] = [5, 6, 7, 8, 9, 10];
const SOUTHERN_WET: readonly number[] = [11, 12, 1, 2, 3, 4];

/**
 * Wet or dry season of a tropical place (a US tropical state or territory, or any place between the
 * tropics), by the date's UTC month; null outside the tropics or when the place is unknown.
 */
export function tropicalSeasonFor(date: Date, place: SeasonPlace | null | undefined): TropicalSeason | null {
  const state = place?.state?.toUpperCase();
  const latitude = place?.latitude ?? null;
  let wet = state ? WET_MONTHS[state] : undefined;
  if (!wet && latitude !== null && Math.abs(latitude) < TROPIC_LATITUDE)
    wet = latitude < 0 ? SOUTHERN_WET : NORTHERN_WET;
  if (!wet) return null;
  return wet.includes(date.getUTCMonth() + 1) ? 'wet season' : 'dry season';
}

/**
 * The season to tell a gardener: wet or dry season in the tropics (Honolulu, San Juan), else the
 * meteorological season of the place's hemisphere ("winter" in Anchorage in January).
 */
export function localSeasonFor(date: Date, place?: SeasonPlace | null): Season | TropicalSeason {
  return tropicalSeasonFor(date, place) ?? seasonFor(date, place?.latitude ?? undefined);
}
