import { createRequire } from 'node:module';

/** One entry of the zipcodes package (US ZIPs, plus Canadian postal prefixes). */
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

let entries: Readonly<Record<string, ZipcodesEntry | undefined>> | null = null;

/**
 * Every entry of the zipcodes package by code, loaded on first use (about 40k entries, ~0.3 s).
 * The package ships no type declarations; loading it through a typed require keeps every program
 * that compiles this library (services, tests) free of an ambient module declaration.
 */
export function zipcodeEntries(): Readonly<Record<string, ZipcodesEntry | undefined>> {
  entries ??= (createRequire(__filename)('zipcodes') as ZipcodesModule).codes;
  return entries;
}
