#!/usr/bin/env node
// Derives the compact ZIP -> hardiness zone table that ships in libs/gardening/data/ from the USDA
// 2023 ZIP-code CSV (zipcode, zone, trange, zonetitle), so that every clone, image and cluster has
// zones with no download. Plain Node, no dependencies.
//
//   npm run zones:derive -w @sprout/gardening                        # default input, writes the shipped file
//   npm run zones:derive -w @sprout/gardening -- --in a.csv --in b.csv --out other.txt
//   npm run zones:derive -w @sprout/gardening -- --check             # exit 1 if the shipped file is stale
//
// Default input: the first that exists of <repo>/.data/hardiness/phzm_us_zipcode_2023.csv (what
// `npm run zones:download` saves) and <repo>/../shared/data/phzm_us_zipcode_2023.csv. Several --in
// files are merged (e.g. the Alaska, Hawaii and Puerto Rico tables); a later file wins on a ZIP.
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

/** The USDA band of a half zone: 10 F per zone from zone 1 at -60 F, 5 F per half. */
function trangeOf(zone) {
  const low = -60 + (parseInt(zone, 10) - 1) * 10 + (zone.endsWith('b') ? 5 : 0);
  return `${low} to ${low + 5}`;
}

const unquote = (cell) => (cell ?? '').trim().replace(/^"|"$/g, '');

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
    if (!/^\d{5}$/.test(zip) || !/^(?:[1-9]|1[0-3])[ab]$/.test(zone))
      fail(`${file}:${i + 2}: bad row "${line}"`);
    if (trangeCol >= 0 && unquote(cols[trangeCol]) !== trangeOf(zone))
      fail(
        `${file}:${i + 2}: trange "${unquote(cols[trangeCol])}" is not zone ${zone}'s band (${trangeOf(zone)})`,
      );
    rows.set(zip, zone);
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  return { rows, sha256 };
}

const table = new Map();
const sources = [];
for (const file of inputs) {
  const { rows, sha256 } = readCsv(file);
  for (const [zip, zone] of rows) table.set(zip, zone);
  sources.push(`#   ${path.basename(file)}: ${rows.size} ZIPs, sha256 ${sha256}`);
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
