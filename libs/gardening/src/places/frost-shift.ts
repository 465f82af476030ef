import * as path from 'node:path';
import { shippedLines } from './shipped-lines';

const DATA = path.join(__dirname, '..', '..', 'data');

/**
 * Frost dates of reference towns where a zone's dates run weeks early: the dry interior West, the
 * cold North, west of the Cascades and the lower Great Lakes' shores (each file's header gives the
 * reason, the source and how the lines are used).
 */
export const SHIPPED_DRY_WEST_FILE = path.join(DATA, 'frost-dry-west.txt');
export const SHIPPED_FROST_FILES: readonly string[] = [
  SHIPPED_DRY_WEST_FILE,
  path.join(DATA, 'frost-cold-north.txt'),
  path.join(DATA, 'frost-pacific-northwest.txt'),
  path.join(DATA, 'frost-lake-shores.txt'),
];

/** One line of a file: a reference town, one of its ZIPs and its own average frost dates. */
export interface FrostReference {
  state: string;
  town: string;
  zip: string;
  /** Average last spring and first fall frost as "MM-DD". */
  frost: readonly [lastSpring: string, firstFall: string];
  /** Where cool nights outlast frost by weeks: the "MM-DD" warm crops go out. */
  warmCrops?: string;
}

let byPrefix: Map<string, FrostReference> | null = null;

function load(): Map<string, FrostReference> {
  if (byPrefix) return byPrefix;
  byPrefix = new Map();
  // Without a file the zone's dates stand (early there, but never a crash).
  for (const line of SHIPPED_FROST_FILES.flatMap(shippedLines)) {
    const [state, town, zip, frost, prefixes, warm] = line.split('|').map((cell) => cell.trim());
    const dates = /^(\d{2}-\d{2}) (\d{2}-\d{2})$/.exec(frost ?? '');
    if (!state || !town || !zip || !prefixes || !dates?.[1] || !dates[2]) continue;
    const reference: FrostReference = { state, town, zip, frost: [dates[1], dates[2]] };
    if (warm && /^\d{2}-\d{2}$/.test(warm)) reference.warmCrops = warm;
    for (const prefix of prefixes.split(/\s+/)) if (/^\d{3}$/.test(prefix)) byPrefix.set(prefix, reference);
  }
  return byPrefix;
}

/** The reference town whose frost dates a ZIP (ZIP+4 accepted) follows, or null where the zone's stand. */
export function frostReferenceForZip(zip: string): FrostReference | null {
  const five = /^\s*(\d{5})(?:-\d{4})?\s*$/.exec(zip)?.[1];
  return five ? (load().get(five.slice(0, 3)) ?? null) : null;
}

/** Every reference town of the files (for tests and tools). */
export function frostReferences(): FrostReference[] {
  return [...new Set(load().values())];
}
