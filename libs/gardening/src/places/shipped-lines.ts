import * as fs from 'node:fs';

/**
 * The data lines of a text file shipped in data/: no "#" comments, no blank lines. A missing file
 * has none, so its lookups fall back to the zone's answer instead of crashing.
 */
export function shippedLines(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter((line) => !line.startsWith('#') && line.trim() !== '');
}
