#!/usr/bin/env node
// `npm run sms -- --from +15035550123 "When do I plant tomatoes?"`: texts the running stack through
// a signed Twilio webhook and prints the reply (tools/src/sms-cli.ts; --help lists the options).
// It runs the TypeScript sources directly, so it needs no build: SWC transpiles each .ts file on
// require and @sprout/<lib> resolves to libs/<lib>/src/index.ts, as in the tests.
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

let swc;
try {
  swc = require('@swc/core');
} catch {
  console.error('sms: dependencies are not installed; run npm install (or npm start) first.');
  process.exit(1);
}
const swcrc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
const LIB = /^@sprout\/(platform|domain|contracts|gardening|llm|sms|testing)$/;

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveSproutLib(request, ...rest) {
  const lib = LIB.exec(request);
  return resolveFilename.call(
    this,
    lib ? path.join(root, 'libs', lib[1], 'src', 'index.ts') : request,
    ...rest,
  );
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    ...swcrc,
    filename,
    sourceMaps: 'inline',
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
process.setSourceMapsEnabled?.(true);

const { main } = require(path.join(root, 'tools', 'src', 'sms-cli.ts'));
process.exitCode = await main(process.argv.slice(2), process.env);
