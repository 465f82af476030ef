// One service of the drill stack, run from its TypeScript sources (no dist/ build needed):
// node tools/drills/service-main.cjs <service-name>. Each runs as its own process so a drill can
// SIGKILL it; transpiled files are cached on disk, so a killed service restarts in seconds.
const os = require('node:os');
const path = require('node:path');
const { ROOT, register } = require('../stack/lib/ts-loader.cjs');

const name = process.argv[2];
if (!name || !/^[a-z-]+$/.test(name)) {
  process.stderr.write('usage: node tools/drills/service-main.cjs <service-name>\n');
  process.exit(2);
}

register({ cacheDir: process.env.DRILLS_TS_CACHE || path.join(os.tmpdir(), 'sprout-drills-ts-cache') });
require(path.join(ROOT, 'services', name, 'src', 'main.ts'));
