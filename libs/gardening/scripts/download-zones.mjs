#!/usr/bin/env node
// Downloads the official USDA 2023 Plant Hardiness Zone ZIP-code tables. Not needed to run: the
// package ships a table derived from the contiguous-US file (data/, see derive-zones.mjs). Use it to
// refresh that table (`npm run zones:derive` reads what this saves) or to point HARDINESS_ZONES_PATH at
// the full set, Alaska, Hawaii and Puerto Rico included.
// Source: the 2023 USDA Plant Hardiness Zone Map, produced by USDA-ARS with the PRISM Climate
// Group at Oregon State University, which publishes phzm_us_zipcode_2023.csv (contiguous US) and
// separate files for Alaska, Hawaii and Puerto Rico at https://prism.oregonstate.edu/phzm/data/2023/.
//
//   npm run zones:download -w @sprout/gardening                 # into <repo>/.data/hardiness/
//   npm run zones:download -w @sprout/gardening -- --out data/  # into ./data/ (relative to the cwd)
//   ... -- --base-url https://mirror.example/phzm/2023/         # another mirror
//
// HARDINESS_ZONES_PATH=<dir>/phzm_us_zipcode_2023.csv then replaces the shipped table (the AK/HI/PR
// files beside it are read too).
import { createWriteStream, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FILES = [
  'phzm_us_zipcode_2023.csv',
  'phzm_ak_zipcode_2023.csv',
  'phzm_hi_zipcode_2023.csv',
  'phzm_pr_zipcode_2023.csv',
];
const DEFAULT_BASE = 'https://prism.oregonstate.edu/phzm/data/2023/';

function argument(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const outDir = path.resolve(
  process.env.INIT_CWD ?? process.cwd(),
  argument('--out') ?? path.join(repoRoot, '.data', 'hardiness'),
);
const baseUrl = (argument('--base-url') ?? DEFAULT_BASE).replace(/\/?$/, '/');

function download(url, file, redirects = 5) {
  return new Promise((resolve, reject) => {
    const request = https.get(
      url,
      { headers: { 'user-agent': 'sprout-zones-download' }, timeout: 60_000 },
      (response) => {
        const { statusCode = 0, headers } = response;
        if (statusCode >= 300 && statusCode < 400 && headers.location && redirects > 0) {
          response.resume();
          resolve(download(new URL(headers.location, url).toString(), file, redirects - 1));
          return;
        }
        if (statusCode !== 200) {
          response.resume();
          reject(new Error(`${url}: HTTP ${statusCode}`));
          return;
        }
        const out = createWriteStream(file);
        response.pipe(out);
        out.on('finish', () => out.close(() => resolve()));
        out.on('error', reject);
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${url}: timed out`)));
    request.on('error', reject);
  });
}

mkdirSync(outDir, { recursive: true });
let failed = false;
for (const name of FILES) {
  const url = new URL(name, baseUrl).toString();
  const target = path.join(outDir, name);
  const partial = `${target}.part`;
  try {
    await download(url, partial);
    const header = readFileSync(partial, 'utf8').slice(0, 200).toLowerCase();
    if (!header.includes('zone')) throw new Error(`${url}: not a zone table (no "zone" column)`);
    renameSync(partial, target);
    console.log(`saved ${target}`);
  } catch (error) {
    rmSync(partial, { force: true });
    console.error(`failed ${name}: ${error instanceof Error ? error.message : String(error)}`);
    // Only the contiguous-US table is essential.
    if (name === FILES[0]) failed = true;
  }
}
console.log(
  failed
    ? 'The main table could not be downloaded.'
    : `Set HARDINESS_ZONES_PATH=${path.join(outDir, FILES[0])}`,
);
process.exit(failed ? 1 : 0);
