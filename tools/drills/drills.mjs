// `npm run drills` (see run-drills.ts for what it does and its options). Runs the TypeScript sources
// directly through the bench's ts-loader.cjs: no build of dist/ needed.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('../bench/ts-loader.cjs').register();
const { main } = require('./run-drills.ts');

main(process.argv.slice(2)).then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
