import * as fs from 'node:fs';
import * as path from 'node:path';
import { placeAreaForZip, placeAreaZips } from './areas';
import { zipcodeEntry } from './zipcodes-data';

/** File name of the USDA 2023 ZIP table for the contiguous US (PRISM Climate Group, Oregon State). */
export const ZONE_TABLE_FILE = 'phzm_us_zipcode_2023.csv';
/** Companion tables PRISM publishes for Alaska, Hawaii and Puerto Rico, read when beside a configured CSV. */
export const ZONE_TABLE_COMPANION_FILES: readonly string[] = [
  'phzm_ak_zipcode_2023.csv',
  'phzm_hi_zipcode_2023.csv',
  'phzm_pr_zipcode_2023.csv',
];
/**
 * The table that ships with the package, derived from the USDA 2023 CSV by scripts/derive-zones.mjs.
 * `../../data` from both src/places (Jest, ts) and dist/places (built services).
 */
export const SHIPPED_ZONE_TABLE = path.join(__dirname, '..', '..', 'data', 'hardiness-zones-2023.txt');
/** A ZIP missing from the table takes the nearest table ZIP only within this distance. */
export const NEAREST_ZONE_MAX_KM = 160;

/** A USDA hardiness zone for a ZIP. */
export interface HardinessZone {
  /** Half zone, e.g. "7b". */
  zone: string;
  /** Average annual extreme minimum temperature band in Fahrenheit, e.g. "5 to 10". */
  trange: string;
  /** "table": the ZIP is in the table; "nearest": taken from the nearest ZIP that is. */
  source: 'table' | 'nearest';
  /** For source "nearest": the table ZIP the zone came from. */
  nearestZip?: string;
  /** For source "nearest": distance to that ZIP in km (absent when matched by ZIP prefix). */
  distanceKm?: number;
}

interface ZoneValue {
  zone: string;
  trange: string;
}

interface GridPoint {
  lat: number;
  lon: number;
  zip: string;
  value: ZoneValue;
}

interface ZoneTable {
  byZip: Map<string, ZoneValue>;
  grid: Map<number, GridPoint[]> | null;
  sortedZips: string[] | null;
}

let configuredPath: string | null | undefined;
let table: ZoneTable | null | undefined;

/**
 * Sets the zone table: a USDA ZIP-code CSV (zipcode, zone, trange, ...; Alaska, Hawaii and Puerto
 * Rico companion files in the same folder are read too, and where they are missing the zones of
 * the areas file stand in) or a table in the shipped compact format.
 * `null` disables the table (every zone is then unknown); `undefined` returns to the shipped table.
 * Services pass their configured HARDINESS_ZONES_PATH; this package reads no environment. The table
 * is (re)read lazily on the next lookup.
 */
export function configureZoneTable(filePath: string | null | undefined): void {
  configuredPath = filePath;
  table = undefined;
}

/** The zone table path in use (configured, else the shipped table), or null when there is none. */
export function zoneTablePath(): string | null {
  if (configuredPath !== undefined) return configuredPath;
  return fs.existsSync(SHIPPED_ZONE_TABLE) ? SHIPPED_ZONE_TABLE : null;
}

/** The USDA band of a half zone in Fahrenheit: zone 1a is -60 to -55, each half zone 5 degrees warmer. */
export function zoneTemperatureRange(zone: string): string {
  const low = -60 + (parseInt(zone, 10) - 1) * 10 + (zone.endsWith('b') ? 5 : 0);
  return `${low} to ${low + 5}`;
}

function intern(interned: Map<string, ZoneValue>, zone: string, trange: string): ZoneValue {
  const key = `${zone}|${trange}`;
  let value = interned.get(key);
  if (!value) {
    value = { zone, trange };
    interned.set(key, value);
  }
  return value;
}

/** The shipped format: "# ..." comment lines, then "<zone> <zip>|<first>-<last> ..." per line. */
function parseCompact(text: string, byZip: Map<string, ZoneValue>, interned: Map<string, ZoneValue>): void {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const [zone, ...runs] = line.trim().split(/\s+/);
    if (!zone || !/^\d{1,2}[ab]$/.test(zone)) continue;
    const value = intern(interned, zone, zoneTemperatureRange(zone));
    for (const run of runs) {
      const match = /^(\d{5})(?:-(\d{5}))?$/.exec(run);
      if (!match?.[1]) continue;
      const first = Number(match[1]);
      const last = match[2] ? Number(match[2]) : first;
      for (let zip = first; zip <= last; zip++) byZip.set(String(zip).padStart(5, '0'), value);
    }
  }
}

/** A USDA CSV (with or without its header row). */
function parseCsv(text: string, byZip: Map<string, ZoneValue>, interned: Map<string, ZoneValue>): void {
  let lineStart = 0;
  let zipCol = 0;
  let zoneCol = 1;
  let trangeCol = 2;
  let header = true;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    lineStart = lineEnd + 1;
    if (line === '') continue;
    const cols = line.split(',');
    if (header) {
      header = false;
      const lower = cols.map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());
      if (lower.includes('zone')) {
        zipCol = Math.max(
          0,
          lower.findIndex((c) => c.startsWith('zip')),
        );
        zoneCol = lower.indexOf('zone');
        trangeCol = lower.indexOf('trange');
        continue;
      }
    }
    const zipRaw = cols[zipCol]?.trim().replace(/^"|"$/g, '');
    const zone = cols[zoneCol]?.trim().replace(/^"|"$/g, '').toLowerCase();
    if (!zipRaw || !zone || !/^\d{1,5}$/.test(zipRaw) || !/^\d{1,2}[ab]$/.test(zone)) continue;
    const trange = trangeCol >= 0 ? (cols[trangeCol]?.trim().replace(/^"|"$/g, '') ?? '') : '';
    byZip.set(zipRaw.padStart(5, '0'), intern(interned, zone, trange));
  }
}

function loadTable(): ZoneTable | null {
  if (table !== undefined) return table;
  const mainPath = zoneTablePath();
  table = null;
  if (!mainPath) return null;
  const byZip = new Map<string, ZoneValue>();
  const interned = new Map<string, ZoneValue>();
  let text: string;
  try {
    text = fs.readFileSync(mainPath, 'utf8');
  } catch {
    return null;
  }
  if (text.startsWith('#')) parseCompact(text, byZip, interned);
  else {
    parseCsv(text, byZip, interned);
    const dir = path.dirname(mainPath);
    for (const companion of ZONE_TABLE_COMPANION_FILES) {
      const companionPath = path.join(dir, companion);
      if (companionPath === mainPath || !fs.existsSync(companionPath)) continue;
      try {
        parseCsv(fs.readFileSync(companionPath, 'utf8'), byZip, interned);
      } catch {
        // A damaged companion file only loses its own state's ZIPs.
      }
    }
    // Without their official files, Alaska, Hawaii, Puerto Rico and the Virgin Islands keep the
    // zones of the areas file (which the shipped table holds too).
    if (byZip.size > 0) {
      for (const zip of placeAreaZips()) {
        const area = byZip.has(zip) ? null : placeAreaForZip(zip);
        if (area) byZip.set(zip, intern(interned, area.zone, zoneTemperatureRange(area.zone)));
      }
    }
  }
  if (byZip.size === 0) return null;
  table = { byZip, grid: null, sortedZips: null };
  return table;
}

const cellKey = (latCell: number, lonCell: number): number => (latCell + 100) * 1000 + (lonCell + 200);

function buildGrid(t: ZoneTable): Map<number, GridPoint[]> {
  if (t.grid) return t.grid;
  const grid = new Map<number, GridPoint[]>();
  for (const [zip, value] of t.byZip) {
    const entry = zipcodeEntry(zip);
    if (!entry || !Number.isFinite(entry.latitude)) continue;
    const key = cellKey(Math.floor(entry.latitude), Math.floor(entry.longitude));
    const point: GridPoint = { lat: entry.latitude, lon: entry.longitude, zip, value };
    const cell = grid.get(key);
    if (cell) cell.push(point);
    else grid.set(key, [point]);
  }
  t.grid = grid;
  return grid;
}

function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 6371 * 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

function nearestByCoordinates(
  t: ZoneTable,
  lat: number,
  lon: number,
): { point: GridPoint; km: number } | null {
  const grid = buildGrid(t);
  const latCell = Math.floor(lat);
  const lonCell = Math.floor(lon);
  let best: { point: GridPoint; km: number } | null = null;
  // One degree of latitude is ~111 km; a ring r cells out is at least (r - 1) * 111 * cos(lat) km away.
  const lonKmPerDeg = 111 * Math.max(0.2, Math.cos((lat * Math.PI) / 180));
  for (let ring = 0; ring <= 3; ring++) {
    if (best && (ring - 1) * Math.min(111, lonKmPerDeg) > best.km) break;
    for (let dLat = -ring; dLat <= ring; dLat++) {
      for (let dLon = -ring; dLon <= ring; dLon++) {
        if (Math.max(Math.abs(dLat), Math.abs(dLon)) !== ring) continue;
        const cell = grid.get(cellKey(latCell + dLat, lonCell + dLon));
        if (!cell) continue;
        for (const point of cell) {
          const km = haversineKm(lat, lon, point.lat, point.lon);
          if (!best || km < best.km) best = { point, km };
        }
      }
    }
  }
  return best && best.km <= NEAREST_ZONE_MAX_KM ? best : null;
}

function nearestByPrefix(t: ZoneTable, zip: string): { zip: string; value: ZoneValue } | null {
  if (!t.sortedZips) t.sortedZips = [...t.byZip.keys()].sort();
  const zips = t.sortedZips;
  const prefix = zip.slice(0, 3);
  let lo = 0;
  let hi = zips.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((zips[mid] ?? '') < zip) lo = mid + 1;
    else hi = mid;
  }
  const target = Number(zip);
  let bestZip: string | null = null;
  for (const candidate of [zips[lo - 1], zips[lo]]) {
    if (!candidate?.startsWith(prefix)) continue;
    if (!bestZip || Math.abs(Number(candidate) - target) < Math.abs(Number(bestZip) - target))
      bestZip = candidate;
  }
  const value = bestZip ? t.byZip.get(bestZip) : undefined;
  return bestZip && value ? { zip: bestZip, value } : null;
}

/**
 * The USDA 2023 hardiness zone of a US ZIP (ZIP+4 accepted). A ZIP in the table answers from it;
 * one that is not takes the nearest table ZIP by latitude and longitude (within
 * NEAREST_ZONE_MAX_KM), or, when its location is unknown, the numerically nearest ZIP of the same
 * 3-digit area. Null when the ZIP is malformed, nothing is close enough, or there is no table.
 */
export function hardinessZoneForZip(zip: string): HardinessZone | null {
  const match = /^\s*(\d{5})(?:-\d{4})?\s*$/.exec(zip);
  const five = match?.[1];
  if (!five) return null;
  const t = loadTable();
  if (!t) return null;
  const direct = t.byZip.get(five);
  if (direct) return { zone: direct.zone, trange: direct.trange, source: 'table' };
  const entry = zipcodeEntry(five);
  if (entry && Number.isFinite(entry.latitude)) {
    const near = nearestByCoordinates(t, entry.latitude, entry.longitude);
    if (!near) return null;
    return {
      zone: near.point.value.zone,
      trange: near.point.value.trange,
      source: 'nearest',
      nearestZip: near.point.zip,
      distanceKm: Math.round(near.km * 10) / 10,
    };
  }
  if (entry) return null;
  const byPrefix = nearestByPrefix(t, five);
  return byPrefix
    ? {
        zone: byPrefix.value.zone,
        trange: byPrefix.value.trange,
        source: 'nearest',
        nearestZip: byPrefix.zip,
      }
    : null;
}

/** Every ZIP in the loaded zone table (empty when there is no table). For tests and tools. */
export function zoneTableZips(): string[] {
  return [...(loadTable()?.byZip.keys() ?? [])];
}

/**
 * Loads the zone table and the nearest-ZIP index now instead of on first use (for services that
 * want their first answer as fast as the rest).
 */
export function preloadZoneTable(): boolean {
  const t = loadTable();
  if (t) buildGrid(t);
  return t !== null;
}
