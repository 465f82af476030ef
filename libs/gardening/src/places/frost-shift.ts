import * as path from 'node:path';
import { shippedLines } from './shipped-lines';

/**
 * Frost dates of reference towns in the dry interior West, where a zone's dates run weeks early
 * (the file's header gives the reason, the source and how the lines are used).
 */
export const SHIPPED_DRY_WEST_FILE = path.join(__dirname, '..', '..', 'data', 'frost-dry-west.txt');

/** One line of the file: a reference town, one of its ZIPs and its own average frost dates. */
export interface FrostReference {
  state: string;
  town: string;
  zip: string;
  /** Average last spring and first fall frost as "MM-DD". */
  frost: readonly [lastSpring: string, firstFall: string];
}

let byPrefix: Map<string, FrostReference> | null = null;

function load(): Map<string, FrostReference> {
  if (byPrefix) return byPrefix;
  byPrefix = new Map();
  // Without the file the zone's dates stand (early in the interior West, but never a crash).
  for (const line of shippedLines(SHIPPED_DRY_WEST_FILE)) {
    const [state, town, zip, frost, prefixes] = line.split('|').map((cell) => cell.trim());
    const dates = /^(\d{2}-\d{2}) (\d{2}-\d{2})$/.exec(frost ?? '');
    if (!state || !town || !zip || !prefixes || !dates?.[1] || !dates[2]) continue;
    const reference: FrostReference = { state, town, zip, frost: [dates[1], dates[2]] };
    for (const prefix of prefixes.split(/\s+/)) if (/^\d{3}$/.test(prefix)) byPrefix.set(prefix, reference);
  }
  return byPrefix;
}

/** The reference town whose frost dates a ZIP (ZIP+4 accepted) follows, or null outside the dry interior West. */
export function frostReferenceForZip(zip: string): FrostReference | null {
  const five = /^\s*(\d{5})(?:-\d{4})?\s*$/.exec(zip)?.[1];
  return five ? (load().get(five.slice(0, 3)) ?? null) : null;
}

/** Every reference town of the file (for tests and tools). */
export function frostReferences(): FrostReference[] {
  return [...new Set(load().values())];
}
