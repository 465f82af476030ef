// One service of the drill stack, run from its TypeScript sources (no dist/ build needed):
// node tools/drills/service-main.cjs <service-name>. Each runs as its own process so a drill can
// SIGKILL it. Loads .ts the way tools/bench/ts-loader.cjs does (SWC, @sprout/<lib> to its
// sources), with the transpiled files cached on disk: a killed service restarts in seconds.
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');

const name = process.argv[2];
if (!name || !/^[a-z-]+$/.test(name)) {
  process.stderr.write('usage: node tools/drills/service-main.cjs <service-name>\n');
  process.exit(2);
}

const ROOT = path.resolve(__dirname, '../..');
const LIBS = /^@sprout\/(platform|domain|contracts|gardening|llm|sms|ui|testing)$/;
const CACHE = process.env.DRILLS_TS_CACHE || path.join(os.tmpdir(), 'sprout-drills-ts-cache');
const swcrcText = fs.readFileSync(path.join(ROOT, '.swcrc'), 'utf8');
const swcrc = JSON.parse(swcrcText);
let swc = null;

const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveSproutLibs(request, ...rest) {
  const lib = LIBS.exec(request);
  return resolve.call(this, lib ? path.join(ROOT, 'libs', lib[1], 'src', 'index.ts') : request, ...rest);
};

fs.mkdirSync(CACHE, { recursive: true });
require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const key = crypto.createHash('sha256').update(swcrcText).update(filename).update(source).digest('hex');
  const cached = path.join(CACHE, `${key}.js`);
  let code;
  try {
    code = fs.readFileSync(cached, 'utf8');
  } catch {
    swc ??= require('@swc/core');
    code = swc.transformSync(source, {
      ...swcrc,
      filename,
      sourceMaps: 'inline',
      module: { type: 'commonjs' },
      jsc: { ...swcrc.jsc, parser: { syntax: 'typescript', decorators: true, tsx: false } },
    }).code;
    // Written whole under a temporary name first: a SIGKILL mid-write leaves no half file behind.
    const temporary = `${cached}.${process.pid}`;
    fs.writeFileSync(temporary, code);
    fs.renameSync(temporary, cached);
  }
  module._compile(code, filename);
};
process.setSourceMapsEnabled?.(true);

require(path.join(ROOT, 'services', name, 'src', 'main.ts'));
