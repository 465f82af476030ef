import * as path from 'node:path';
import { shippedLines } from './shipped-lines';

/**
 * Zones and frost dates by area for Alaska, Hawaii, Puerto Rico and the U.S. Virgin Islands (the
 * file's header gives sources and method). Its zones also reach the shipped zone table through
 * scripts/derive-zones.mjs; its frost dates are read from here, as a zone misleads in these places.
 */
export const SHIPPED_AREAS_FILE = path.join(__dirname, '..', '..', 'data', 'areas-ak-hi-pr-vi.txt');

/** One area of the file: a town or a group of like towns and the ZIPs that belong to it. */
export interface PlaceArea {
  /** Two-letter code: AK, HI, PR or VI. */
  state: string;
  /** "Anchorage", "Hilo and the Hilo coast", ... */
  name: string;
  /** The 2023 USDA half zone of the area's town(s). */
  zone: string;
  /** Average last spring and first fall frost as "MM-DD", or "frost-free". */
  frost: readonly [lastSpring: string, firstFall: string] | 'frost-free';
}

let byZip: Map<string, PlaceArea> | null = null;

function parseLine(line: string, into: Map<string, PlaceArea>): void {
  const [state, name, zone, frost, zips] = line.split('|').map((cell) => cell.trim());
  if (!state || !name || !zone || !frost || !zips) return;
  const dates = /^(\d{2}-\d{2}) (\d{2}-\d{2})$/.exec(frost);
  if (frost !== 'frost-free' && !dates) return;
  const area: PlaceArea = {
    state,
    name,
    zone,
    frost: dates?.[1] && dates[2] ? [dates[1], dates[2]] : 'frost-free',
  };
  for (const run of zips.split(/\s+/)) {
    const match = /^(\d{5})(?:-(\d{5}))?$/.exec(run);
    if (!match?.[1]) continue;
    const first = Number(match[1]);
    const last = match[2] ? Number(match[2]) : first;
    for (let zip = first; zip <= last; zip++) into.set(String(zip).padStart(5, '0'), area);
  }
}

function load(): Map<string, PlaceArea> {
  if (byZip) return byZip;
  byZip = new Map();
  // Without the file the zone's dates stand in (wrong for Alaska, but never a crash).
  for (const line of shippedLines(SHIPPED_AREAS_FILE)) parseLine(line, byZip);
  return byZip;
}

/** The area of an Alaska, Hawaii, Puerto Rico or Virgin Islands ZIP (ZIP+4 accepted); null elsewhere. */
export function placeAreaForZip(zip: string): PlaceArea | null {
  const five = /^\s*(\d{5})(?:-\d{4})?\s*$/.exec(zip)?.[1];
  return five ? (load().get(five) ?? null) : null;
}

/** Every ZIP the areas file covers (for tests and tools). */
export function placeAreaZips(): string[] {
  return [...load().keys()];
}

/** Reads the areas file now instead of on first use; false when it is missing. */
export function preloadPlaceAreas(): boolean {
  return load().size > 0;
}
