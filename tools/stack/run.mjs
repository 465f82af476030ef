#!/usr/bin/env node
// The one launcher of the TypeScript tools: `node tools/stack/run.mjs <file.ts> [args...]` loads the
// file from its sources (SWC through lib/ts-loader.cjs, @sprout/<lib> to libs/<lib>/src: no build
// of dist/ needed) and runs its exported `main(argv, env)`. A number main returns is the exit code.
// npm run bench:*, drills and sms go through it.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const [file, ...argv] = process.argv.slice(2);
if (!file || !file.endsWith('.ts')) {
  process.stderr.write('usage: node tools/stack/run.mjs <file.ts> [args...]\n');
  process.exit(2);
}

let loader;
try {
  loader = require('./lib/ts-loader.cjs');
} catch {
  process.stderr.write('dependencies are not installed; run npm install (or npm start) first.\n');
  process.exit(1);
}
loader.register();
const tool = require(path.resolve(file));
if (typeof tool.main !== 'function') {
  process.stderr.write(`${file} exports no main(argv, env) to run\n`);
  process.exit(2);
}

tool.main(argv, process.env).then(
  (code) => process.exit(typeof code === 'number' ? code : (process.exitCode ?? 0)),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
