// Lets plain Node require the repo's TypeScript sources directly, the way Jest does: SWC transpiles
// each .ts file on load (decorator metadata included, per .swcrc) and @sprout/<lib> resolves to
// libs/<lib>/src/index.ts. The launcher (run.mjs) and the drills' service processes use it, so no
// tool needs (or races) a build of dist/.
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../../..');
const swcrcText = fs.readFileSync(path.join(ROOT, '.swcrc'), 'utf8');
const swcrc = JSON.parse(swcrcText);
const LIBS = /^@sprout\/(platform|domain|contracts|gardening|llm|sms|ui|testing)$/;
// Light entries of a library (package.json exports), for code that must not load all of it.
const SUBPATHS = {
  '@sprout/platform/security-headers': 'libs/platform/src/http/security-headers.ts',
  // The edge is a service, but the drills run it in-process from its package entry.
  '@sprout/edge': 'services/edge/src/index.ts',
};

let registered = false;
let swc = null;

function transpile(source, filename) {
  swc ??= require('@swc/core');
  return swc.transformSync(source, {
    ...swcrc,
    filename,
    sourceMaps: 'inline',
    module: { type: 'commonjs' },
    jsc: { ...swcrc.jsc, parser: { syntax: 'typescript', decorators: true, tsx: false } },
  }).code;
}

/** The transpiled file from `cacheDir` when this source was transpiled before, else transpiled and kept. */
function cached(cacheDir, source, filename) {
  const key = crypto.createHash('sha256').update(swcrcText).update(filename).update(source).digest('hex');
  const file = path.join(cacheDir, `${key}.js`);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    const code = transpile(source, filename);
    // Written whole under a temporary name first: a SIGKILL mid-write leaves no half file behind.
    const temporary = `${file}.${process.pid}`;
    fs.writeFileSync(temporary, code);
    fs.renameSync(temporary, file);
    return code;
  }
}

/**
 * `cacheDir`: keep transpiled files there, so a process started again (a drill's killed service)
 * loads in seconds instead of transpiling everything anew.
 */
function register({ cacheDir } = {}) {
  if (registered) return;
  registered = true;
  if (cacheDir) fs.mkdirSync(cacheDir, { recursive: true });

  const resolve = Module._resolveFilename;
  Module._resolveFilename = function resolveSproutLibs(request, ...rest) {
    const lib = LIBS.exec(request);
    const subpath = SUBPATHS[request];
    const target = lib
      ? path.join(ROOT, 'libs', lib[1], 'src', 'index.ts')
      : subpath && path.join(ROOT, subpath);
    return resolve.call(this, target ?? request, ...rest);
  };

  // require.extensions is deprecated but still the way to add a CommonJS loader for .ts files.
  require.extensions['.ts'] = (module, filename) => {
    const source = fs.readFileSync(filename, 'utf8');
    module._compile(cacheDir ? cached(cacheDir, source, filename) : transpile(source, filename), filename);
  };
  process.setSourceMapsEnabled?.(true);
}

module.exports = { register, ROOT };
