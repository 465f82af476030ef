// Lets plain Node require the repo's TypeScript sources directly, the way Jest does: SWC transpiles
// each .ts file on load (decorator metadata included, per .swcrc) and @sprout/<lib> resolves to
// libs/<lib>/src/index.ts. The benchmark uses it so it never needs (or races) a build of dist/.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const swc = require('@swc/core');

const ROOT = path.resolve(__dirname, '../..');
const swcrc = JSON.parse(fs.readFileSync(path.join(ROOT, '.swcrc'), 'utf8'));
const LIBS = /^@sprout\/(platform|domain|contracts|gardening|llm|sms|ui|testing)$/;
// Light entries of a library (package.json exports), for code that must not load all of it.
const SUBPATHS = {
  '@sprout/platform/security-headers': 'libs/platform/src/http/security-headers.ts',
  // The edge is a service, but the drills run it in-process from its package entry.
  '@sprout/edge': 'services/edge/src/index.ts',
};

let registered = false;

function register() {
  if (registered) return;
  registered = true;

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
    const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
      ...swcrc,
      filename,
      sourceMaps: 'inline',
      module: { type: 'commonjs' },
      jsc: { ...swcrc.jsc, parser: { syntax: 'typescript', decorators: true, tsx: false } },
    });
    module._compile(code, filename);
  };
  process.setSourceMapsEnabled?.(true);
}

module.exports = { register, ROOT };
