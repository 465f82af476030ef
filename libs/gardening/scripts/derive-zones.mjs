#!/usr/bin/env node
// Derives the compact ZIP -> hardiness zone table that ships in libs/gardening/data/ from the USDA
// 2023 ZIP-code CSV (zipcode, zone, trange, zonetitle) and the zones by area of Alaska, Hawaii,
// Puerto Rico and the U.S. Virgin Islands (data/areas-ak-hi-pr-vi.txt), so that every clone, image
// and cluster has zones with no download. Plain Node, no dependencies.
//
//   npm run zones:derive -w @sprout/gardening                        # default input, writes the shipped file
//   npm run zones:derive -w @sprout/gardening -- --in a.csv --in b.csv --out other.txt
//   npm run zones:derive -w @sprout/gardening -- --areas other.txt   # or --no-areas
//   npm run zones:derive -w @sprout/gardening -- --check             # exit 1 if the shipped file is stale
//
// Default input: the first that exists of <repo>/.data/hardiness/phzm_us_zipcode_2023.csv (what
// `npm run zones:download` saves) and the same file in the data folder of a
// checkout beside the repository. Several --in
// files are merged (e.g. the official Alaska, Hawaii and Puerto Rico tables); a later file wins on a
// ZIP, and every --in file wins over the areas file.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(packageDir, '..', '..');
const cwd = process.env.INIT_CWD ?? process.cwd();
const MAIN_FILE = 'phzm_us_zipcode_2023.csv';

function values(name) {
  const out = [];
  process.argv.forEach((arg, i) => {
    if (arg === name && process.argv[i + 1] !== undefined) out.push(process.argv[i + 1]);
  });
  return out;
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

const inputs = values('--in').map((file) => path.resolve(cwd, file));
if (inputs.length === 0) {
  const found = [
    path.join(repoRoot, '.data', 'hardiness', MAIN_FILE),
    path.join(repoRoot, '..', 'shared', 'data', MAIN_FILE),
  ].find((file) => existsSync(file));
  if (!found) fail(`No ${MAIN_FILE} found: pass --in <file> (or run npm run zones:download first).`);
  inputs.push(found);
}
const outFile = path.resolve(
  cwd,
  values('--out')[0] ?? path.join(packageDir, 'data', 'hardiness-zones-2023.txt'),
);
const check = process.argv.includes('--check');
const areasFile = process.argv.includes('--no-areas')
  ? null
  : path.resolve(cwd, values('--areas')[0] ?? path.join(packageDir, 'data', 'areas-ak-hi-pr-vi.txt'));

/** The USDA band of a half zone: 10 F per zone from zone 1 at -60 F, 5 F per half. */
function trangeOf(zone) {
  const low = -60 + (parseInt(zone, 10) - 1) * 10 + (zone.endsWith('b') ? 5 : 0);
  return `${low} to ${low + 5}`;
}

const unquote = (cell) => (cell ?? '').trim().replace(/^"|"$/g, '');
const ZONE_RE = /^(?:[1-9]|1[0-3])[ab]$/;
const sha256Of = (text) => createHash('sha256').update(text).digest('hex');

/** The ZIP prefixes (first three digits) each state or territory of the areas file may use. */
const STATE_PREFIXES = {
  AK: ['995', '999'],
  HI: ['967', '968'],
  PR: ['006', '009'],
  VI: ['008', '008'],
};

/**
 * The areas file: "<state> | <area> | <zone> | <frost> | <ZIPs>" per line, "# " comments. Each line
 * is checked (zone, frost dates, ZIPs of its state, no ZIP in two areas); returns zip -> zone and
 * the areas in file order.
 */
function readAreas(file) {
  const text = readFileSync(file, 'utf8');
  const rows = new Map();
  const areas = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const where = `${file}:${i + 1}`;
    const cells = line.split('|').map((c) => c.trim());
    const [state = '', name = '', zone = '', frost = '', zipText = ''] = cells;
    if (cells.length !== 5 || !STATE_PREFIXES[state] || name === '')
      fail(`${where}: expected "<state> | <area> | <zone> | <frost> | <ZIPs>", got "${line}"`);
    if (!ZONE_RE.test(zone)) fail(`${where}: "${zone}" is not a half zone`);
    if (
      frost !== 'frost-free' &&
      !/^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) (0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(frost)
    )
      fail(`${where}: frost must be "MM-DD MM-DD" or "frost-free", got "${frost}"`);
    const [low, high] = STATE_PREFIXES[state];
    const zips = [];
    for (const run of zipText.split(/\s+/)) {
      const match = /^(\d{5})(?:-(\d{5}))?$/.exec(run);
      if (!match || Number(match[2] ?? match[1]) < Number(match[1]))
        fail(`${where}: bad ZIP or run "${run}"`);
      for (let n = Number(match[1]); n <= Number(match[2] ?? match[1]); n++)
        zips.push(String(n).padStart(5, '0'));
    }
    for (const zip of zips) {
      if (zip.slice(0, 3) < low || zip.slice(0, 3) > high) fail(`${where}: ${zip} is not a ${state} ZIP`);
      if (rows.has(zip)) fail(`${where}: ${zip} is in two areas`);
      rows.set(zip, zone);
    }
    areas.push({ state, name, zone, zips });
  }
  if (rows.size === 0) fail(`${file}: no areas`);
  return { rows, areas, sha256: sha256Of(text) };
}

/** zip -> zone from one USDA CSV; every row's trange must be the zone's standard band. */
function readCsv(file) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const header = (lines.shift() ?? '').split(',').map((c) => unquote(c).toLowerCase());
  const zipCol = header.findIndex((c) => c.startsWith('zip'));
  const zoneCol = header.indexOf('zone');
  const trangeCol = header.indexOf('trange');
  if (zipCol < 0 || zoneCol < 0) fail(`${file}: no zipcode and zone columns in "${header.join(',')}"`);
  const rows = new Map();
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const cols = line.split(',');
    const zip = unquote(cols[zipCol]).padStart(5, '0');
    const zone = unquote(cols[zoneCol]).toLowerCase();
    if (!/^\d{5}$/.test(zip) || !ZONE_RE.test(zone)) fail(`${file}:${i + 2}: bad row "${line}"`);
    if (trangeCol >= 0 && unquote(cols[trangeCol]) !== trangeOf(zone))
      fail(
        `${file}:${i + 2}: trange "${unquote(cols[trangeCol])}" is not zone ${zone}'s band (${trangeOf(zone)})`,
      );
    rows.set(zip, zone);
  }
  return { rows, sha256: sha256Of(text) };
}

const table = new Map();
const sources = [];
const csvs = inputs.map((file) => ({ file, ...readCsv(file) }));
const fromCsv = new Set(csvs.flatMap(({ rows }) => [...rows.keys()]));
// The areas first: any USDA file given wins on its ZIPs.
let areaNotes = [];
if (areasFile) {
  const { rows, areas, sha256 } = readAreas(areasFile);
  const kept = [...rows].filter(([zip]) => !fromCsv.has(zip));
  for (const [zip, zone] of kept) table.set(zip, zone);
  if (kept.length > 0) {
    sources.push(
      `#   ${path.basename(areasFile)}: ${kept.length} ZIPs of Alaska, Hawaii, Puerto Rico and the U.S. Virgin Islands, sha256 ${sha256}`,
    );
    areaNotes = areaSummary(areas.filter((a) => a.zips.some((zip) => !fromCsv.has(zip))));
  }
}
for (const { file, rows, sha256 } of csvs) {
  for (const [zip, zone] of rows) table.set(zip, zone);
  sources.push(`#   ${path.basename(file)}: ${rows.size} ZIPs, sha256 ${sha256}`);
}

/** "# AK: Anchorage 5b; Palmer 5a; ..." wrapped at 100 characters, one state after another. */
function areaSummary(areas) {
  const out = [
    "# Alaska, Hawaii and Puerto Rico: the 2023 map read by area (the zone of each area's town, given to",
    '# every ZIP of the area); the U.S. Virgin Islands, on no USDA map, from station records. The areas',
    `# file (${path.basename(areasFile)}) says how. Areas and zones:`,
  ];
  for (const state of Object.keys(STATE_PREFIXES)) {
    const items = areas.filter((a) => a.state === state).map((a) => `${a.name} ${a.zone}`);
    let line = `#   ${state}:`;
    for (const [i, item] of items.entries()) {
      const text = ` ${item}${i === items.length - 1 ? '' : ';'}`;
      if (line.length + text.length > 100) {
        out.push(line);
        line = '#      ';
      }
      line += text;
    }
    if (items.length > 0) out.push(line);
  }
  return out;
}

// Runs of ZIPs (in ZIP order) sharing a zone; numerically consecutive ZIPs inside a run become a-b.
const zips = [...table.keys()].sort();
const lines = [];
let run = null;
for (const zip of zips) {
  const zone = table.get(zip);
  if (!run || run.zone !== zone) {
    run = { zone, ranges: [] };
    lines.push(run);
  }
  const last = run.ranges.at(-1);
  if (last && Number(last[1]) + 1 === Number(zip)) last[1] = zip;
  else run.ranges.push([zip, zip]);
}

const text = [
  '# USDA Plant Hardiness Zones by ZIP code, 2023 map.',
  '# USDA Plant Hardiness Zone Map, 2023. Agricultural Research Service, U.S. Department of Agriculture,',
  '# with the PRISM Climate Group, Oregon State University. https://planthardiness.ars.usda.gov/',
  '# ZIP tables: https://prism.oregonstate.edu/phzm/data/2023/ (public data).',
  `# Derived by libs/gardening/scripts/derive-zones.mjs (npm run zones:derive); do not edit. ${table.size} ZIPs from:`,
  ...sources,
  ...areaNotes,
  '# Format: one line per run of ZIPs (in ZIP order) with the same zone: "<zone> <zip>|<first>-<last> ...";',
  '# <first>-<last> means every ZIP from first to last, each in the table. Temperature band (F) of a zone:',
  '# zone 1a is -60 to -55, each half zone 5 degrees warmer (8b: 15 to 20).',
  ...lines.map((l) => `${l.zone} ${l.ranges.map(([a, b]) => (a === b ? a : `${a}-${b}`)).join(' ')}`),
  '',
].join('\n');

if (check) {
  const current = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
  if (current !== text)
    fail(`${outFile} differs from what ${inputs.join(', ')} derive: run npm run zones:derive`);
  console.log(`${outFile} is up to date (${table.size} ZIPs)`);
} else {
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, text);
  console.log(`wrote ${outFile}: ${table.size} ZIPs, ${lines.length} runs, ${Buffer.byteLength(text)} bytes`);
}
