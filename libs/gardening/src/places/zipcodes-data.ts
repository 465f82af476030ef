import * as fs from 'node:fs';
import { createRequire } from 'node:module';

/** One US ZIP of the zipcodes package. */
export interface ZipcodesEntry {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}

interface ZipcodesModule {
  codes: Record<string, ZipcodesEntry | undefined>;
}

/**
 * The US ZIPs in columns: a slot per possible 5-digit ZIP (-1: none) into typed arrays of
 * coordinates and indexes into the distinct city and state names. About 2 MB, where the package's
 * object map (and compiling its 5 MB source) costs a process some 80 MB of RSS.
 */
interface ZipColumns {
  slotOf: Int32Array;
  zips: Int32Array;
  latitude: Float64Array;
  longitude: Float64Array;
  city: Uint16Array;
  state: Uint8Array;
  cityNames: string[];
  stateNames: string[];
}

let columns: ZipColumns | null = null;

/**
 * The package's US codes: its data file is one `exports.codes = {...};` line of JSON, parsed as
 * JSON (cheap, and the transient objects are collected) rather than compiled as a module; loaded
 * as a module if that line ever changes shape.
 */
function packageCodes(): Record<string, ZipcodesEntry | undefined> {
  const req = createRequire(__filename);
  const file = req.resolve('zipcodes/lib/codes.js');
  const text = fs.readFileSync(file, 'utf8');
  const line = text.slice(0, text.indexOf('\n'));
  try {
    return JSON.parse(line.slice(line.indexOf('{'), line.lastIndexOf('}') + 1)) as ZipcodesModule['codes'];
  } catch {
    return (req(file) as ZipcodesModule).codes;
  }
}

function loadColumns(): ZipColumns {
  if (columns) return columns;
  const entries = Object.values(packageCodes()).filter(
    (e): e is ZipcodesEntry => !!e && e.country === 'US' && /^\d{5}$/.test(e.zip),
  );
  const cityNames: string[] = [];
  const stateNames: string[] = [];
  const cityIds = new Map<string, number>();
  const stateIds = new Map<string, number>();
  const idOf = (ids: Map<string, number>, names: string[], name: string): number => {
    let id = ids.get(name);
    if (id === undefined) {
      id = names.length;
      names.push(name);
      ids.set(name, id);
    }
    return id;
  };
  const n = entries.length;
  const built: ZipColumns = {
    slotOf: new Int32Array(100_000).fill(-1),
    zips: new Int32Array(n),
    latitude: new Float64Array(n),
    longitude: new Float64Array(n),
    city: new Uint16Array(n),
    state: new Uint8Array(n),
    cityNames,
    stateNames,
  };
  entries.forEach((entry, i) => {
    const zip = Number(entry.zip);
    built.slotOf[zip] = i;
    built.zips[i] = zip;
    built.latitude[i] = entry.latitude;
    built.longitude[i] = entry.longitude;
    built.city[i] = idOf(cityIds, cityNames, entry.city);
    built.state[i] = idOf(stateIds, stateNames, entry.state);
  });
  columns = built;
  return built;
}

function entryAt(c: ZipColumns, i: number): ZipcodesEntry {
  return {
    zip: String(c.zips[i]).padStart(5, '0'),
    latitude: c.latitude[i] ?? Number.NaN,
    longitude: c.longitude[i] ?? Number.NaN,
    city: c.cityNames[c.city[i] ?? 0] ?? '',
    state: c.stateNames[c.state[i] ?? 0] ?? '',
    country: 'US',
  };
}

/** The US ZIP's entry (5 digits exactly), or null. Loaded on first use (~0.2 s). */
export function zipcodeEntry(zip: string): ZipcodesEntry | null {
  if (!/^\d{5}$/.test(zip)) return null;
  const c = loadColumns();
  const i = c.slotOf[Number(zip)] ?? -1;
  return i < 0 ? null : entryAt(c, i);
}

/** Every US ZIP's entry, in the package's order. */
export function* zipcodeEntries(): Generator<ZipcodesEntry> {
  const c = loadColumns();
  for (let i = 0; i < c.zips.length; i++) yield entryAt(c, i);
}
