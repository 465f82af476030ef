// Runs the real sms-gateway entry point (src/main.ts) as its own process, from the TypeScript
// sources the way Jest loads them: SWC transpiles each .ts file on require and @sprout/<lib>
// resolves to libs/<lib>/src/index.ts. Configuration comes from the environment. Tests use it to
// kill a gateway for real (SIGKILL) in the middle of a job.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '../../../..');
const swcrc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
const LIB = /^@sprout\/(platform|domain|contracts|gardening|llm|sms|testing)$/;

const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveSproutLib(request, ...rest) {
  const lib = LIB.exec(request);
  return resolve.call(this, lib ? path.join(root, 'libs', lib[1], 'src', 'index.ts') : request, ...rest);
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

require(path.join(__dirname, '..', '..', 'src', 'main.ts'));
