import { hardinessZoneForZip } from './hardiness';
import { normalizeState } from './states';
import { zipcodeEntries, zipcodeEntry, type ZipcodesEntry } from './zipcodes-data';

/** A US ZIP code with its post-office city, state and centre point. */
export interface ZipInfo {
  zip: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
}

interface CityIndex {
  /** normalised "city|ST" -> ZIPs of that city, ascending */
  byCityState: Map<string, string[]>;
  /** state -> normalised city names of that state with their ZIP counts */
  citiesByState: Map<string, Map<string, number>>;
  /** normalised "city|ST" -> the city's name as the data spells it */
  displayName: Map<string, string>;
}

let cityIndex: CityIndex | null = null;

/**
 * Normalises a city name for lookups: lower case, no periods or apostrophes, hyphens as spaces, and
 * the usual abbreviations spelled out ("St." -> "saint", "Ft" -> "fort", "Mt" -> "mount").
 */
export function normalizeCityName(city: string): string {
  return city
    .toLowerCase()
    .replace(/[.'\u2019]/g, '')
    .replace(/-/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^st /, 'saint ')
    .replace(/^ste /, 'sainte ')
    .replace(/^ft /, 'fort ')
    .replace(/^mt /, 'mount ')
    .replace(/ st /g, ' saint ');
}

function entryToInfo(entry: ZipcodesEntry): ZipInfo {
  return {
    zip: entry.zip,
    city: entry.city,
    state: entry.state,
    latitude: entry.latitude,
    longitude: entry.longitude,
  };
}

/**
 * Looks up a 5-digit US ZIP code (a ZIP+4 such as "97201-1234" is accepted; only the first five
 * digits count). Returns city, state and coordinates, or null for anything that is not a known US ZIP.
 */
export function lookupZip(zip: string): ZipInfo | null {
  const match = /^\s*(\d{5})(?:-\d{4})?\s*$/.exec(zip);
  if (!match?.[1]) return null;
  const entry = zipcodeEntry(match[1]);
  return entry ? entryToInfo(entry) : null;
}

/** Builds (once) the city indexes over every US ZIP of the zipcodes package. */
export function getCityIndex(): CityIndex {
  if (cityIndex) return cityIndex;
  const byCityState = new Map<string, string[]>();
  const citiesByState = new Map<string, Map<string, number>>();
  const displayName = new Map<string, string>();
  for (const entry of zipcodeEntries()) {
    const city = normalizeCityName(entry.city);
    const key = `${city}|${entry.state}`;
    const list = byCityState.get(key);
    if (list) list.push(entry.zip);
    else byCityState.set(key, [entry.zip]);
    let cities = citiesByState.get(entry.state);
    if (!cities) {
      cities = new Map();
      citiesByState.set(entry.state, cities);
    }
    cities.set(city, (cities.get(city) ?? 0) + 1);
    if (!displayName.has(key)) displayName.set(key, entry.city);
  }
  for (const list of byCityState.values()) list.sort();
  cityIndex = { byCityState, citiesByState, displayName };
  return cityIndex;
}

/** The ZIPs of a city in a state (state as a two-letter code), ascending; empty when unknown. */
export function zipsForCityState(city: string, state: string): readonly string[] {
  return getCityIndex().byCityState.get(`${normalizeCityName(city)}|${state.toUpperCase()}`) ?? [];
}

/**
 * A representative ZIP for a city and state (state as a code or a name): of the city's ZIPs (those
 * with a hardiness zone first), the one nearest the middle of them all. Null when the city is not
 * known in that state.
 */
export function zipForCityState(city: string, state: string): string | null {
  const stateCode = normalizeState(state);
  if (!stateCode) return null;
  const zips = zipsForCityState(city, stateCode);
  if (zips.length <= 1) return zips[0] ?? null;
  const key = `${normalizeCityName(city)}|${stateCode}`;
  const cached = representativeCache.get(key);
  if (cached) return cached;
  // The ZIP nearest the middle of the city's ZIPs, preferring ZIPs with a hardiness zone.
  const points = zips.map(zipcodeEntry).filter((e): e is ZipcodesEntry => !!e);
  const lat = points.reduce((sum, p) => sum + p.latitude, 0) / points.length;
  const lon = points.reduce((sum, p) => sum + p.longitude, 0) / points.length;
  const zoned = points.filter((p) => hardinessZoneForZip(p.zip)?.source === 'table');
  const pool = zoned.length > 0 ? zoned : points;
  let best = pool[0]?.zip ?? zips[0] ?? null;
  let bestDistance = Infinity;
  for (const p of pool) {
    const d = (p.latitude - lat) ** 2 + ((p.longitude - lon) * Math.cos((lat * Math.PI) / 180)) ** 2;
    if (d < bestDistance) {
      best = p.zip;
      bestDistance = d;
    }
  }
  if (best) representativeCache.set(key, best);
  return best;
}

const representativeCache = new Map<string, string>();

/** A city's name as the ZIP data spells it ("Saint Louis" for "st. louis"), or null when unknown. */
export function cityDisplayName(city: string, state: string): string | null {
  return getCityIndex().displayName.get(`${normalizeCityName(city)}|${state.toUpperCase()}`) ?? null;
}
